package io.mikyu.transport;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import java.io.File;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * TLS for {@code tls://} endpoints, from the configuration's {@code tls.*} keys (the same names on the daemon, in a
 * client's URI query and in the config file):
 *
 * <table>
 * <caption>The {@code tls.*} keys on each side</caption>
 * <tr><th>key</th><th>daemon</th><th>client</th></tr>
 * <tr><td>{@code tls.cert} + {@code tls.key} [{@code tls.keyPassword}]</td><td>its certificate chain and key
 * (PEM; the key PKCS#8)</td><td>a client certificate</td></tr>
 * <tr><td>{@code tls.keystore} + {@code tls.keystorePassword}</td><td colspan="2">the same from a PKCS12 (or JKS)
 * key store</td></tr>
 * <tr><td>{@code tls.ca}</td><td>CAs (PEM) whose client certificates it accepts</td><td>CAs (PEM) it trusts to
 * sign the broker's certificate (default: the JDK's)</td></tr>
 * <tr><td>{@code tls.truststore} + {@code tls.truststorePassword}</td><td colspan="2">the same from a key
 * store</td></tr>
 * <tr><td>{@code tls.clientAuth}</td><td>{@code none} (default), {@code optional}, {@code require}</td><td></td></tr>
 * </table>
 *
 * The JDK's TLS (1.3 and 1.2) is used; nothing native. A client checks the broker's certificate against the host
 * name it dialled (HTTPS rules: the name or IP must be in the certificate's subject alternative names).
 */
public final class Tls {

    public static final Set<String> KEYS = Set.of("tls.cert", "tls.key", "tls.keyPassword", "tls.keystore",
            "tls.keystorePassword", "tls.ca", "tls.truststore", "tls.truststorePassword", "tls.clientAuth");

    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final SslContext context;
    private final boolean client;

    private Tls(SslContext context, boolean client) {
        this.context = context;
        this.client = client;
    }

    /** The daemon's side: a key is required; client certificates are checked as {@code tls.clientAuth} says. */
    public static Tls forServer(Map<String, String> settings) {
        check(settings);
        try {
            SslContextBuilder b;
            String cert = settings.get("tls.cert");
            String keystore = settings.get("tls.keystore");
            if (cert != null) {
                String key = require(settings, "tls.key", "with tls.cert");
                b = SslContextBuilder.forServer(file(cert, "tls.cert"), file(key, "tls.key"),
                        settings.get("tls.keyPassword"));
            } else if (keystore != null) {
                b = SslContextBuilder.forServer(keyManagers(settings));
            } else {
                throw new IllegalArgumentException("a tls:// listener needs a certificate: tls.cert and tls.key"
                        + " (PEM), or tls.keystore");
            }
            ClientAuth auth = clientAuth(settings.getOrDefault("tls.clientAuth", "none"));
            if (auth != ClientAuth.NONE) {
                if (!trust(b, settings)) {
                    throw new IllegalArgumentException("tls.clientAuth=" + settings.get("tls.clientAuth")
                            + " needs the CAs of client certificates: tls.ca or tls.truststore");
                }
            }
            b.clientAuth(auth);
            return new Tls(b.sslProvider(SslProvider.JDK).protocols(PROTOCOLS).build(), false);
        } catch (SSLException | RuntimeException e) {
            throw failed(e);
        }
    }

    /** A client's side: trusts {@code tls.ca}/{@code tls.truststore} or the JDK's CAs; an optional certificate. */
    public static Tls forClient(Map<String, String> settings) {
        check(settings);
        try {
            SslContextBuilder b = SslContextBuilder.forClient();
            trust(b, settings);
            if (settings.get("tls.cert") != null) {
                b.keyManager(file(settings.get("tls.cert"), "tls.cert"),
                        file(require(settings, "tls.key", "with tls.cert"), "tls.key"), settings.get("tls.keyPassword"));
            } else if (settings.get("tls.keystore") != null) {
                b.keyManager(keyManagers(settings));
            }
            return new Tls(b.sslProvider(SslProvider.JDK).protocols(PROTOCOLS).build(), true);
        } catch (SSLException | RuntimeException e) {
            throw failed(e);
        }
    }

    /** The handler to put first in a channel's pipeline; a client's checks the certificate against the host. */
    public SslHandler newHandler(Channel ch, Endpoint endpoint) {
        ByteBufAllocator alloc = ch.alloc();
        if (!client) {
            return context.newHandler(alloc);
        }
        SslHandler handler = context.newHandler(alloc, endpoint.host(), endpoint.port());
        SSLEngine engine = handler.engine();
        SSLParameters params = engine.getSSLParameters();
        params.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(params);
        return handler;
    }

    private static void check(Map<String, String> settings) {
        for (String key : settings.keySet()) {
            if (key.startsWith("tls.") && !KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown TLS setting '" + key + "'; known: "
                        + String.join(", ", new java.util.TreeSet<>(KEYS)));
            }
        }
    }

    private static boolean trust(SslContextBuilder b, Map<String, String> settings) {
        String ca = settings.get("tls.ca");
        String store = settings.get("tls.truststore");
        if (ca != null) {
            b.trustManager(file(ca, "tls.ca"));
            return true;
        }
        if (store != null) {
            try {
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(load(store, "tls.truststore", settings.get("tls.truststorePassword")));
                b.trustManager(tmf);
                return true;
            } catch (GeneralSecurityException e) {
                throw new IllegalArgumentException("cannot use tls.truststore " + store + ": " + e.getMessage(), e);
            }
        }
        return false;
    }

    private static KeyManagerFactory keyManagers(Map<String, String> settings) {
        String path = settings.get("tls.keystore");
        String password = settings.get("tls.keystorePassword");
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(load(path, "tls.keystore", password), password == null ? new char[0] : password.toCharArray());
            return kmf;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot use tls.keystore " + path + ": " + e.getMessage(), e);
        }
    }

    private static KeyStore load(String path, String key, String password) {
        try {
            return KeyStore.getInstance(file(path, key), password == null ? new char[0] : password.toCharArray());
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot read " + key + " " + path + ": " + e.getMessage(), e);
        }
    }

    private static ClientAuth clientAuth(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "none" -> ClientAuth.NONE;
            case "optional" -> ClientAuth.OPTIONAL;
            case "require" -> ClientAuth.REQUIRE;
            default -> throw new IllegalArgumentException("tls.clientAuth must be none, optional or require, not '"
                    + text + "'");
        };
    }

    private static File file(String path, String key) {
        File f = new File(path);
        if (!f.isFile()) {
            throw new IllegalArgumentException(key + " " + path + " is not a readable file");
        }
        return f;
    }

    private static String require(Map<String, String> settings, String key, String why) {
        String v = settings.get(key);
        if (v == null) {
            throw new IllegalArgumentException(key + " is needed " + why);
        }
        return v;
    }

    private static IllegalArgumentException failed(Exception e) {
        if (e instanceof IllegalArgumentException iae && iae.getMessage() != null
                && iae.getMessage().contains("tls.")) {
            return iae;
        }
        return new IllegalArgumentException("cannot set up TLS: " + e.getMessage(), e);
    }
}
