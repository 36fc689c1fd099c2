# syntax=docker/dockerfile:1
# Gambit: a static binary on a distroless base, run as a non-root user.
# Build: docker build -t gambit .
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum* ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/gambit ./cmd/gambit

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/gambit /usr/local/bin/gambit
USER nonroot:nonroot
WORKDIR /home/nonroot
ENTRYPOINT ["gambit"]
# The bot becomes the default command once `gambit bot` exists; until then
# the image explains itself.
CMD ["--help"]
