# syntax=docker/dockerfile:1
# Gambit: a static binary on a distroless base, run as a non-root user.
# Build: docker build -t gambit .
# A release names its version and commit (gambit version, /help's footer):
#   docker build --build-arg VERSION=v0.3.0 --build-arg COMMIT=$(git rev-parse HEAD) -t gambit .
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum* ./
RUN go mod download
COPY . .
ARG VERSION=
ARG COMMIT=
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X github.com/gambitbot/gambit/internal/buildinfo.version=${VERSION} -X github.com/gambitbot/gambit/internal/buildinfo.commit=${COMMIT}" -o /out/gambit ./cmd/gambit
# The data directory exists in the image, owned by the user that runs, so
# a named volume mounted there starts with that ownership.
RUN mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/gambit /usr/local/bin/gambit
COPY --from=build --chown=nonroot:nonroot /out/data /home/nonroot/data
USER nonroot:nonroot
WORKDIR /home/nonroot
ENTRYPOINT ["gambit"]
# The bot is the default command: settings from the environment, the database
# in ./data of the working directory (mount a volume there):
#   docker run --env-file .env -v gambit-data:/home/nonroot/data gambit
# Any other command replaces it: docker run --rm gambit perft --game adjacency --depth 5
CMD ["bot"]
