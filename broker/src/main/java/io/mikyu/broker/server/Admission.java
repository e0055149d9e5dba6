package io.mikyu.broker.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Applies {@link AdmissionLimits}: counts connections, in total and per IP address, runs password checks on a small
 * pool of their own (so a flood of logins waits there and never takes the workers that serve requests), and makes
 * an address that keeps failing wait before it may try again, without checking its password meanwhile.
 */
final class Admission {

    /** Addresses with failed logins remembered at most; the least recently seen are forgotten first. */
    private static final int MAX_TRACKED_ADDRESSES = 10_000;
    private static final long FIRST_DELAY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final AdmissionLimits limits;
    private final LongSupplier nanoTime;
    private final ThreadPoolExecutor authPool;
    private final Map<String, Integer> perAddress = new HashMap<>();
    private int total;
    private final Map<String, Failures> failures = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
            return size() > MAX_TRACKED_ADDRESSES;
        }
    };
    private final Counter refusedTotal;
    private final Counter refusedPerAddress;
    private final Counter throttled;

    /** Failed logins of one address, and until when it must wait. */
    private static final class Failures {
        int count;
        long waitUntil;
    }

    Admission(AdmissionLimits limits, MeterRegistry meters, LongSupplier nanoTime) {
        this.limits = limits;
        this.nanoTime = nanoTime;
        this.authPool = new ThreadPoolExecutor(limits.authThreads(), limits.authThreads(), 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(limits.authQueue()), new DefaultThreadFactory("mikyu-broker-auth", true));
        Gauge.builder("mikyu.broker.authentication.queued", authPool, p -> p.getQueue().size())
                .description("logins waiting for a password check").register(meters);
        refusedTotal = Counter.builder("mikyu.broker.connections.refused").tag("reason", "maxConnections")
                .description("connections refused at once for a limit").register(meters);
        refusedPerAddress = Counter.builder("mikyu.broker.connections.refused").tag("reason", "maxConnectionsPerAddress")
                .description("connections refused at once for a limit").register(meters);
        throttled = Counter.builder("mikyu.broker.authentication.throttled")
                .description("logins refused without a check: their address failed too often").register(meters);
    }

    /** The pool that checks passwords; a full queue rejects the task. */
    ThreadPoolExecutor authPool() {
        return authPool;
    }

    /**
     * Counts a new connection in, or says why it may not come in (then it is not counted).
     *
     * @return {@code null} if admitted, else the reason to give the client
     */
    synchronized String admit(SocketAddress remote) {
        if (total >= limits.maxConnections()) {
            refusedTotal.increment();
            return "the broker has " + total + " connections, its limit (maxConnections); try again later";
        }
        String address = address(remote);
        if (address != null) {
            int n = perAddress.getOrDefault(address, 0);
            if (n >= limits.maxConnectionsPerAddress()) {
                refusedPerAddress.increment();
                return "address " + address + " has " + n + " connections, its limit (maxConnectionsPerAddress)";
            }
            perAddress.put(address, n + 1);
        }
        total++;
        return null;
    }

    /** A connection {@link #admit admitted} has closed. */
    synchronized void left(SocketAddress remote) {
        total--;
        String address = address(remote);
        if (address != null) {
            perAddress.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
        }
    }

    /** How long the address must still wait before its next login is checked; 0: now. */
    synchronized long loginWaitMillis(SocketAddress remote) {
        String address = address(remote);
        Failures f = address == null ? null : failures.get(address);
        long left = f == null ? 0 : f.waitUntil - nanoTime.getAsLong();
        if (left > 0) {
            throttled.increment();
            return Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
        }
        return 0;
    }

    synchronized void loginFailed(SocketAddress remote) {
        String address = address(remote);
        if (address == null) {
            return;
        }
        Failures f = failures.computeIfAbsent(address, a -> new Failures());
        f.count++;
        int over = f.count - limits.freeLoginFailures();
        if (over > 0) {
            long delay = Math.min(limits.maxLoginDelay().toNanos(), FIRST_DELAY_NANOS << Math.min(over - 1, 30));
            f.waitUntil = nanoTime.getAsLong() + delay;
        }
    }

    synchronized void loginSucceeded(SocketAddress remote) {
        String address = address(remote);
        if (address != null) {
            failures.remove(address);
        }
    }

    void close() {
        authPool.shutdownNow();
    }

    /** The IP address a limit counts; {@code null} for a Unix-socket client (local, not told apart). */
    private static String address(SocketAddress remote) {
        return remote instanceof InetSocketAddress inet && inet.getAddress() != null
                ? inet.getAddress().getHostAddress() : null;
    }
}
