module github.com/gambitbot/gambit

go 1.26
