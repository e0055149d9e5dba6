package io.mikyu.tck;

import com.sun.ts.lib.util.TestUtil;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.io.PrintWriter;
import java.util.Properties;

/**
 * Prepares the TCK's own logging before any test class loads. The tests report most failure causes only through
 * {@link TestUtil} ({@code TestUtil.logErr}, {@code TestUtil.printStackTrace}) and then throw an exception that has
 * no cause. Left alone, {@code TestUtil} thinks it runs inside a server and queues every such line for a harness
 * socket that is never opened: the cause is lost (and the queue only grows). {@link TestUtil#initNoLogging} plus
 * {@link TestUtil#setCurrentTest} switch it to "harness" mode, in which it prints to the streams given here.
 *
 * <p>Both streams go to {@code System.err} (in 11.1.0 {@code setCurrentTest} uses its first stream for errors too),
 * next to the {@code System.Logger} lines of the tests, so Surefire keeps them in order with the test that wrote
 * them; {@link TckLog} also keeps the first error lines of each test for {@link TckFailureCause}.
 * {@code -Dtck.trace=true} adds the TCK's trace lines ({@code TestUtil.logTrace}), which are many.
 */
public final class TckHarness implements LauncherSessionListener {

    private static boolean initialised;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        init();
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (kafkaMode()) {
            TckKafka.stop();
        }
    }

    /** Read here, not through {@link TckKafka}, which is only loaded in kafka mode (its dependencies with it). */
    private static boolean kafkaMode() {
        return "kafka".equals(System.getProperty("tck.mode"));
    }

    /** Idempotent; also called by {@link TckSummary} in case a launcher opens no session. */
    static synchronized void init() {
        if (initialised) {
            return;
        }
        initialised = true;
        Properties props = new Properties();
        props.putAll(System.getProperties());
        props.setProperty("harness.log.traceflag", Boolean.toString(Boolean.getBoolean("tck.trace")));
        TestUtil.initNoLogging(props);
        PrintWriter err = new PrintWriter(new TckLog.ErrorTee(), true);
        TestUtil.setCurrentTest("jakarta-messaging-tck", err, err);
        java.util.logging.Logger.getLogger("").addHandler(new TckLog.SevereHandler());
        if (TckDaemon.remoteMode()) {
            TckDaemon.uri(); // started before the first test, so that a daemon that cannot start fails at once
        }
        if (kafkaMode()) {
            TckKafka.warmUp(); // the cluster, started and its internal topics made before the first test
        }
    }
}
