# grue's container image, for running experiments on Kubernetes (grue exp
# k8s) or anywhere else a container runs. grue's one static binary on a
# small Debian base, with CA certificates for HTTPS model endpoints.
#
#   docker build -t grue --build-arg VERSION=$(git describe --always) .
#   docker run --rm -v "$PWD/runs:/data/runs" grue exp run /data/config.yaml --out /data/runs/x
#
# Story files are not in the image: mount them and point GRUE_GAMES at
# them (default /data/games, on the volume the pods share).
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/grue-lab/grue/internal/cli.version=${VERSION}" -o /out/grue ./cmd/grue

FROM debian:bookworm-slim
RUN apt-get update \
	&& apt-get install -y --no-install-recommends ca-certificates \
	&& rm -rf /var/lib/apt/lists/*
COPY --from=build /out/grue /usr/local/bin/
ENV GRUE_GAMES=/data/games
WORKDIR /data
ENTRYPOINT ["grue"]
CMD ["--help"]
