package io.mikyu.bench.jca;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.jboss.arquillian.container.test.api.Deployer;

/**
 * The message-driven bean's measure for one side: the side's queue is preloaded through the servlet, then the
 * bean's application is deployed (its activation starts consuming) and the bean's count is polled until it has
 * every message. The rate is taken on the server's clock from the first message to the last. Then the bean is
 * undeployed and the queue drained: it must be empty, the bean must have counted each message once and read every
 * byte.
 */
final class ConsumeMeasure {

    record Result(double perSecond, double seconds, double untilDoneSeconds, double preloadPerSecond) {
    }

    private static final int PRELOAD_BATCH = 100;
    private static final Duration POLL = Duration.ofMillis(50);

    private final BenchHttp http;
    private final Deployer deployer;
    private final int messages;
    private final int size;
    private final Duration timeout;

    ConsumeMeasure(BenchHttp http, Deployer deployer, int messages, int size, Duration timeout) {
        this.http = http;
        this.deployer = deployer;
        this.messages = messages;
        this.size = size;
        this.timeout = timeout;
    }

    Result run(Side side) throws Exception {
        String leftOver = http.post("drain?side=" + side.id + "&queue=consume", timeout);
        if (!leftOver.equals("0")) {
            throw new AssertionError(side.id + ": the consume queue held " + leftOver + " messages before the preload");
        }
        long preloadStart = System.nanoTime();
        http.post("preload?side=" + side.id + "&size=" + size + "&count=" + messages + "&batch=" + PRELOAD_BATCH,
                timeout);
        double preloadSeconds = (System.nanoTime() - preloadStart) / 1e9;

        long deployStart = System.nanoTime();
        deployer.deploy(side.consumerDeployment());
        AtomicReference<String[]> last = new AtomicReference<>(new String[] {"0"});
        String[] summary;
        try {
            // Polled every POLL: the time until done is measured to within that.
            summary = await(side.id + ": the bean consumed all").atMost(timeout).pollDelay(Duration.ZERO)
                    .pollInterval(POLL).until(() -> {
                        last.set(http.consumed(side).split(" "));
                        return last.get();
                    }, s -> Long.parseLong(s[0]) >= messages);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(side.id + ": the bean consumed " + last.get()[0] + " of " + messages + " in "
                    + timeout);
        } finally {
            deployer.undeploy(side.consumerDeployment());
        }
        double untilDone = (System.nanoTime() - deployStart) / 1e9;
        long consumed = Long.parseLong(summary[0]);
        long bytes = Long.parseLong(summary[1]);
        long redelivered = Long.parseLong(summary[2]);
        double seconds = Long.parseLong(summary[3]) / 1e9;
        String left = http.post("drain?side=" + side.id + "&queue=consume", timeout);
        if (consumed != messages || bytes != (long) messages * size || !left.equals("0")) {
            throw new AssertionError(side.id + ": preloaded " + messages + ", the bean counted " + consumed + " ("
                    + bytes + " bytes, " + redelivered + " redelivered), left on the queue " + left);
        }
        return new Result(messages / seconds, seconds, untilDone, messages / preloadSeconds);
    }
}
