# The Emberscope profile store as one static binary on an empty base image.
#   docker build -t emberscope .        (or: go tool mage image)
#   docker run -p 4040:4040 -v emberscope-data:/data emberscope
# The same image runs the demo workload: docker run emberscope demo -push-url ...
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
COPY x/k6/go.mod x/k6/go.sum x/k6/
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/emberscope ./cmd/emberscope \
 && mkdir -p /out/data

FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/
COPY --from=build /out/emberscope /emberscope
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
VOLUME ["/data"]
EXPOSE 4040
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/emberscope", "health", "-url", "http://127.0.0.1:4040/ready"]
ENTRYPOINT ["/emberscope"]
CMD ["store", "-listen", ":4040", "-data", "/data"]
