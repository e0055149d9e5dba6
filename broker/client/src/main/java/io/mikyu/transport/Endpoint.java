package io.mikyu.transport;

import io.mikyu.engine.Secrets;
import io.netty.channel.unix.DomainSocketAddress;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.file.Path;

/**
 * Where a broker listens or a client dials: {@code tcp://host:port}, {@code tls://host:port} (TCP with TLS) or
 * {@code unix:///path/to/mikyu.sock}.
 *
 * @param uri the endpoint as written (for a TCP port 0, the bound endpoint has the real port)
 */
public record Endpoint(URI uri) {

    public static final String TCP = "tcp";
    public static final String UNIX = "unix";
    public static final String TLS = "tls";

    public Endpoint {
        String scheme = uri.getScheme();
        if (TCP.equals(scheme) || TLS.equals(scheme)) {
            if (uri.getHost() == null || uri.getPort() < 0) {
                throw new IllegalArgumentException("'" + Secrets.redact(uri) + "' needs a host and a port: " + scheme
                        + "://host:port");
            }
        } else if (UNIX.equals(scheme)) {
            if (uri.getPath() == null || uri.getPath().isEmpty() || uri.getHost() != null) {
                throw new IllegalArgumentException("'" + Secrets.redact(uri) + "' needs an absolute path: unix:///path/to/mikyu.sock");
            }
        } else {
            throw new IllegalArgumentException("'" + Secrets.redact(uri) + "' is none of tcp://host:port, tls://host:port,"
                    + " unix:///path");
        }
    }

    public static Endpoint parse(String text) {
        return new Endpoint(URI.create(text));
    }

    public static boolean supports(URI uri) {
        return TCP.equals(uri.getScheme()) || TLS.equals(uri.getScheme()) || UNIX.equals(uri.getScheme());
    }

    /** Whether the connection is TCP wrapped in TLS. */
    public boolean isTls() {
        return TLS.equals(uri.getScheme());
    }

    /** The host name a TLS client checks the broker's certificate against. */
    public String host() {
        return uri.getHost();
    }

    public int port() {
        return uri.getPort();
    }

    public boolean isUnix() {
        return UNIX.equals(uri.getScheme());
    }

    /** The address to bind or connect to. Resolving a TCP host name happens here. */
    public SocketAddress address() {
        return isUnix() ? new DomainSocketAddress(uri.getPath()) : new InetSocketAddress(uri.getHost(), uri.getPort());
    }

    public Path socketPath() {
        return Path.of(uri.getPath());
    }

    /** The endpoint a listener actually bound: the same, with the real port for {@code tcp://host:0}. */
    public Endpoint bound(SocketAddress local) {
        if (local instanceof InetSocketAddress inet && !isUnix()) {
            return new Endpoint(URI.create(uri.getScheme() + "://" + uri.getHost() + ":" + inet.getPort()));
        }
        return this;
    }

    @Override
    public String toString() {
        return isUnix() ? UNIX + "://" + uri.getPath() : uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
    }
}
