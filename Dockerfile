# skillet serve for a team (docs/serving.md): a static binary on an empty
# image, run as a non-root user, with nothing to write (it works with a
# read-only root filesystem). The workspace is a volume at /skills: mount
# the checkout of the skills repository (the folder that holds
# skills/NAME/SKILL.md, .agents/skills/NAME/SKILL.md, ...), not its skills/.
#
#   docker build -t skillet .
#   (umask 077; openssl rand -hex 32 > token) && sudo chown 65534 token
#   docker run --read-only -v "$PWD:/skills:ro" \
#     -v "$PWD/token:/run/secrets/skillet/token:ro" -p 8080:8080 skillet
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The build command deploy/build_test.go checks: static, no cgo (no dynamic
# loader at each start: docs/performance.md#start-up-static-and-dynamic-builds-measured-6-december).
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/skillet ./cmd/skillet

FROM scratch
COPY --from=build /out/skillet /skillet
# nobody:nogroup; no shell, no package manager, nothing else in the image.
USER 65534:65534
EXPOSE 8080
ENTRYPOINT ["/skillet", "serve", "--workspace", "/skills", "--no-user", "--no-cache", \
  "--http", "0.0.0.0:8080", "--listen-any", "--auth-token-file", "/run/secrets/skillet/token"]
