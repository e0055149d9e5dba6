package io.mikyu.cli;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.mikyu.broker.server.AdmissionLimits;
import io.mikyu.broker.server.BrokerConfig.Key;
import io.mikyu.broker.server.BrokerOptions;
import io.mikyu.broker.server.BrokerServer;
import io.mikyu.broker.server.MetricsEndpoint;
import io.mikyu.broker.server.PrometheusScrape;
import io.mikyu.cli.units.Units;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.config.MikyuConfig;
import io.mikyu.engine.security.SecurityRealm;
import io.mikyu.engine.spi.QueueMeterSource;
import io.mikyu.transport.Endpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * {@code mikyu daemon}: serves the store in {@code --data-dir} to clients of {@code Mikyu.dial(uri)} until stopped.
 * SIGTERM or Ctrl-C stops it cleanly: it stops accepting, finishes the requests in progress, closes the store
 * (everything fsynced) and exits 0. Users, permissions, TLS, metrics and engine settings come from the
 * configuration ({@code --config FILE}, see {@code mikyu config}); the flags here override it.
 */
@Command(name = "daemon", mixinStandardHelpOptions = true,
        description = {"Serves the store to remote clients (Mikyu.dial) until stopped with SIGTERM or Ctrl-C.",
            "Prints one line once listening: the addresses, with the real port for port 0, the data directory and"
                + " how long the store took to open."})
final class DaemonCommand implements Callable<Integer> {

    static final String DEFAULT_TARGET = "tcp://127.0.0.1:7420";

    @Mixin
    DataDirOption dataDir;

    @Option(names = "--target", paramLabel = "URI",
            description = "Where to listen: tcp://HOST:PORT, tls://HOST:PORT (tls.* settings in the config) or"
                    + " unix:///PATH; repeat for several. Overrides the config's 'listen'. Default: "
                    + DEFAULT_TARGET + ". Without users in the config anyone who reaches it may do anything:"
                    + " listen on loopback or a socket file.")
    List<String> targets = new ArrayList<>();

    @Option(names = "--heartbeat", paramLabel = "DURATION", converter = Units.DurationConverter.class,
            description = "Ping an idle client after this long; drop one silent for three times as long."
                    + " Default: 10s.")
    Duration heartbeat;

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Serve /metrics (Prometheus), /health/live and /health/ready over HTTP on this port"
                    + " (0: any free one) of metrics.host (127.0.0.1). Default: off.")
    Integer metricsPort;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Map<String, String> flags = new LinkedHashMap<>();
        if (!targets.isEmpty()) {
            flags.put(Key.LISTEN.key(), String.join(",", targets));
        }
        if (heartbeat != null) {
            flags.put(Key.HEARTBEAT.key(), heartbeat.toMillis() + "ms");
        }
        if (metricsPort != null) {
            flags.put(Key.METRICS_PORT.key(), metricsPort.toString());
        }
        MikyuConfig config = dataDir.config(flags);
        List<Endpoint> endpoints = endpoints(config.get(Key.LISTEN));
        SecurityRealm realm = SecurityRealm.from(config);
        String metricsPortText = config.get(Key.METRICS_PORT);
        PrometheusMeterRegistry registry = metricsPortText == null ? null : MetricsEndpoint.newRegistry();
        BrokerOptions options = BrokerOptions.defaults(endpoints).withHeartbeat(config.duration(Key.HEARTBEAT))
                .withRealm(realm).withTls(config.withPrefix("tls.")).withMeterRegistry(registry)
                .withAdmission(new AdmissionLimits((int) config.count(Key.MAX_CONNECTIONS),
                        (int) config.count(Key.MAX_CONNECTIONS_PER_ADDRESS), (int) config.count(Key.AUTH_THREADS),
                        AdmissionLimits.DEFAULTS.authQueue(), (int) config.count(Key.FREE_LOGIN_FAILURES),
                        config.duration(Key.MAX_LOGIN_DELAY)));
        EngineConfig.Builder engine = config.engineConfig();
        if (registry != null) {
            // Per-queue meters are read by the endpoint when scraped, not registered (see PrometheusScrape).
            engine.meterRegistry(registry).perQueueMeters(false);
        }
        PrintWriter out = spec.commandLine().getOut();
        warnIfOpen(realm, endpoints);
        CountDownLatch stopRequested = new CountDownLatch(1);
        long openStart = System.nanoTime();
        try (GracefulStop stop = GracefulStop.exitingWith(0, stopRequested::countDown,
                options.shutdownGrace().plusSeconds(20));
             Mikyu mikyu = dataDir.open(config, engine.build());
             MetricsEndpoint metrics = registry == null ? null : MetricsEndpoint.start(
                     config.get(Key.METRICS_HOST), port(metricsPortText),
                     new PrometheusScrape(registry, QueueMeterSource.of(mikyu).orElse(null)))) {
            // How long the store took to open (recovery): what a restart costs before clients are served.
            double openSeconds = (System.nanoTime() - openStart) / 1e9;
            BrokerServer server = BrokerServer.start(mikyu, options);
            try {
                String served = metrics == null ? "" : "; metrics http://" + metrics.host() + ":" + metrics.port()
                        + "/metrics";
                if (metrics != null) {
                    metrics.readiness(server::isReady);
                }
                out.println("mikyu daemon listening on " + server.endpoints().stream().map(Endpoint::toString)
                        .collect(Collectors.joining(" ")) + " (data " + mikyu.location()
                        + String.format(Locale.ROOT, ", opened in %.3f s)", openSeconds) + served);
                out.flush();
                stopRequested.await();
            } finally {
                server.close();
            }
        }
        return 0;
    }

    private int port(String text) {
        try {
            int port = Integer.parseInt(text.trim());
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), "metrics.port must be a port number, not '" + text
                    + "'");
        }
    }

    /** Without users, anyone who reaches a listener may do anything: say so unless it is loopback or a socket. */
    private void warnIfOpen(SecurityRealm realm, List<Endpoint> endpoints) {
        if (realm.enabled()) {
            return;
        }
        for (Endpoint e : endpoints) {
            if (e.isUnix()) {
                continue;
            }
            boolean loopback;
            try {
                loopback = InetAddress.getByName(e.host()).isLoopbackAddress();
            } catch (java.net.UnknownHostException ex) {
                loopback = false;
            }
            if (!loopback) {
                PrintWriter err = spec.commandLine().getErr();
                err.println("mikyu: warning: no users are configured, so anyone who reaches " + e
                        + " may read, write and delete every queue (see 'users.*' in docs/security.md)");
                err.flush();
            }
        }
    }

    private List<Endpoint> endpoints(String listen) {
        List<String> texts = new ArrayList<>();
        for (String t : (listen == null ? DEFAULT_TARGET : listen).split(",")) {
            if (!t.isBlank()) {
                texts.add(t.trim());
            }
        }
        List<Endpoint> endpoints = new ArrayList<>();
        for (String text : texts) {
            try {
                endpoints.add(Endpoint.parse(text));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--target " + e.getMessage());
            }
        }
        return endpoints;
    }
}
