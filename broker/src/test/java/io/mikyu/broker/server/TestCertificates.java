package io.mikyu.broker.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Throwaway self-signed certificates made with the JDK's {@code keytool} at test time (nothing secret is committed):
 * the broker's for localhost/127.0.0.1, a client's, and a stranger's nobody trusts; as PKCS12 key stores and as PEM
 * files. A self-signed certificate is its own CA: {@code tls.ca} naming it trusts it. Made once per test JVM (five
 * keytool runs), in a temporary directory deleted at exit.
 */
final class TestCertificates {

    static final String PASSWORD = "changeit";

    /** The broker's certificate, which clients trust as their CA. */
    final Path caPem;
    final Path serverKeystore;
    final Path serverChainPem;
    final Path serverKeyPem;
    final Path clientKeystore;
    /** The client's certificate, which a broker requiring client certificates trusts. */
    final Path clientCertPem;
    final Path clientKeyPem;
    /** A certificate nobody trusts. */
    final Path strangerKeystore;

    private static TestCertificates instance;

    private TestCertificates(Path dir) throws Exception {
        serverKeystore = selfSigned(dir, "server", "CN=localhost", "SAN=dns:localhost,ip:127.0.0.1");
        serverChainPem = export(dir, serverKeystore, "server");
        caPem = serverChainPem;
        serverKeyPem = pemKey(serverKeystore, "server", dir.resolve("server-key.pem"));
        clientKeystore = selfSigned(dir, "client", "CN=app", null);
        clientCertPem = export(dir, clientKeystore, "client");
        clientKeyPem = pemKey(clientKeystore, "client", dir.resolve("client-key.pem"));
        strangerKeystore = selfSigned(dir, "stranger", "CN=stranger", null);
    }

    static synchronized TestCertificates get() {
        if (instance == null) {
            try {
                Path dir = Files.createTempDirectory("mikyu-test-tls");
                instance = new TestCertificates(dir);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(dir)));
            } catch (Exception e) {
                throw new IllegalStateException("cannot make test certificates with keytool: " + e, e);
            }
        }
        return instance;
    }

    private static Path selfSigned(Path dir, String alias, String dname, String san) throws Exception {
        Path store = dir.resolve(alias + ".p12");
        List<String> args = new ArrayList<>(List.of("-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname",
                "secp256r1", "-dname", dname, "-validity", "2", "-keystore", store.toString()));
        if (san != null) {
            args.addAll(List.of("-ext", san));
        }
        keytool(args.toArray(String[]::new));
        return store;
    }

    private static Path export(Path dir, Path store, String alias) throws Exception {
        Path pem = dir.resolve(alias + ".pem");
        keytool("-exportcert", "-rfc", "-alias", alias, "-keystore", store.toString(), "-file", pem.toString());
        return pem;
    }

    private static Path pemKey(Path store, String alias, Path out) throws Exception {
        KeyStore ks = KeyStore.getInstance(store.toFile(), PASSWORD.toCharArray());
        PrivateKey key = (PrivateKey) ks.getKey(alias, PASSWORD.toCharArray());
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        return Files.writeString(out, pem);
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-Xshare:auto", "-J-XX:+UseSerialGC"));
        command.addAll(List.of(args));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String output;
        try (InputStream in = p.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // a temporary directory
        }
    }
}
