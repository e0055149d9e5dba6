package io.mikyu.cli;

import io.mikyu.broker.server.BrokerOptions;
import io.mikyu.broker.server.BrokerServer;
import io.mikyu.cli.units.Units;
import io.mikyu.engine.Mikyu;
import io.mikyu.transport.Endpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * {@code mikyu daemon}: serves the store in {@code --data-dir} to clients of {@code Mikyu.dial(uri)} until stopped.
 * SIGTERM or Ctrl-C stops it cleanly: it stops accepting, finishes the requests in progress, closes the store
 * (everything fsynced) and exits 0.
 */
@Command(name = "daemon", mixinStandardHelpOptions = true,
        description = {"Serves the store to remote clients (Mikyu.dial) until stopped with SIGTERM or Ctrl-C.",
            "Prints one line once listening: the addresses, with the real port for port 0."})
final class DaemonCommand implements Callable<Integer> {

    static final String DEFAULT_TARGET = "tcp://127.0.0.1:7420";

    @Mixin
    DataDirOption dataDir;

    @Option(names = "--target", paramLabel = "URI",
            description = "Where to listen: tcp://HOST:PORT or unix:///PATH; repeat for several. Default: "
                    + DEFAULT_TARGET + ". There is no authentication yet: listen on loopback or a socket file.")
    List<String> targets = new ArrayList<>();

    @Option(names = "--heartbeat", paramLabel = "DURATION", converter = Units.DurationConverter.class,
            description = "Ping an idle client after this long; drop one silent for three times as long."
                    + " Default: 10s.")
    Duration heartbeat = Duration.ofSeconds(10);

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<Endpoint> endpoints = endpoints();
        BrokerOptions options = BrokerOptions.defaults(endpoints).withHeartbeat(heartbeat);
        CountDownLatch stopRequested = new CountDownLatch(1);
        PrintWriter out = spec.commandLine().getOut();
        try (GracefulStop stop = GracefulStop.exitingWith(0, stopRequested::countDown,
                options.shutdownGrace().plusSeconds(20));
             Mikyu mikyu = dataDir.open()) {
            BrokerServer server = BrokerServer.start(mikyu, options);
            try {
                out.println("mikyu daemon listening on " + server.endpoints().stream().map(Endpoint::toString)
                        .collect(Collectors.joining(" ")) + " (data " + mikyu.location() + ")");
                out.flush();
                stopRequested.await();
            } finally {
                server.close();
            }
        }
        return 0;
    }

    private List<Endpoint> endpoints() {
        List<String> texts = targets.isEmpty() ? List.of(DEFAULT_TARGET) : targets;
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
