package io.mikyu.cli;

import io.mikyu.engine.Mikyu;

import java.time.Duration;

/**
 * Waits for a daemon to be restarted by someone else (a script, an operator): first until it stops answering, then
 * until it answers again. Used by a remote backlog run ({@code mikyu bench run --backlog --access remote}) between
 * producing and draining, so the drain meets a daemon that reopened the store holding the backlog.
 */
final class DaemonRestart {

    /** Between two dials: short beside a JVM's start (several hundred ms), so a restart is never missed. */
    private static final long POLL_MILLIS = 50;

    private DaemonRestart() {
    }

    /**
     * A connection to the daemon at {@code target} once it has gone away and come back.
     *
     * @throws CommandException if that did not happen within {@code limit}
     */
    static Mikyu await(String target, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        boolean wentAway = false;
        while (System.nanoTime() < deadline) {
            Mikyu dialled = tryDial(target);
            if (dialled != null && wentAway) {
                return dialled;
            }
            if (dialled != null) {
                dialled.close(); // still the daemon that holds the backlog as produced: wait for it to stop
            } else {
                wentAway = true;
            }
            Thread.sleep(POLL_MILLIS);
        }
        throw new CommandException("the daemon at " + target + " was not " + (wentAway ? "back" : "stopped")
                + " within " + limit.toMinutes() + " minutes; a remote --backlog run waits for it to be restarted"
                + " between producing and draining");
    }

    private static Mikyu tryDial(String target) {
        try {
            return TargetOption.dial(target);
        } catch (CommandException badTarget) {
            throw badTarget;
        } catch (RuntimeException unreachable) {
            return null;
        }
    }
}
