package io.mikyu.broker.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.mikyu.engine.security.SecurityRealm;
import io.mikyu.protocol.Protocol;
import io.mikyu.transport.Endpoint;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How a broker listens and serves.
 *
 * @param endpoints       where to listen: {@code tcp://host:port} (port 0 picks a free one), {@code tls://host:port},
 *                        {@code unix:///path}
 * @param maxFrameBytes   the largest frame the broker accepts; a client may agree on less
 * @param heartbeat       idle interval after which either side sends a ping; three silent intervals close
 * @param workerThreads   threads running engine calls; appends block until their group commit, so more threads
 *                        than cores let more producers share one fsync
 * @param maxWaitingCalls long polls (read, dequeue, fetch with a wait) waiting at once, each parked on its own
 *                        thread; past this a waiting call is refused as busy
 * @param shutdownGrace   how long a stop waits for requests in progress
 * @param realm           who may connect and what they may do ({@link SecurityRealm#open()}: everyone, everything)
 * @param tls             the {@code tls.*} settings for {@code tls://} endpoints (see {@link io.mikyu.transport.Tls})
 * @param meterRegistry   where the broker's own meters go (connections, requests, refusals); {@code null}: none
 * @param admission       how many connections, and how many failed logins an address may make before it waits
 */
public record BrokerOptions(List<Endpoint> endpoints, int maxFrameBytes, Duration heartbeat, int workerThreads,
                            int maxWaitingCalls, Duration shutdownGrace, String serverName, SecurityRealm realm,
                            Map<String, String> tls, MeterRegistry meterRegistry, AdmissionLimits admission) {

    public BrokerOptions {
        endpoints = List.copyOf(endpoints);
        tls = Map.copyOf(tls);
        admission = java.util.Objects.requireNonNull(admission, "admission");
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("a broker needs at least one endpoint to listen on");
        }
        if (maxFrameBytes < Protocol.MIN_FRAME_BYTES) {
            throw new IllegalArgumentException("maxFrameBytes must be at least " + Protocol.MIN_FRAME_BYTES);
        }
        if (workerThreads < 1 || maxWaitingCalls < 1) {
            throw new IllegalArgumentException("workerThreads and maxWaitingCalls must be positive");
        }
    }

    public static BrokerOptions defaults(List<Endpoint> endpoints) {
        return new BrokerOptions(endpoints, Protocol.DEFAULT_MAX_FRAME_BYTES,
                Duration.ofMillis(Protocol.DEFAULT_HEARTBEAT_MILLIS), 32, 1024, Duration.ofSeconds(10),
                "mikyu broker", SecurityRealm.open(), Map.of(), null, AdmissionLimits.DEFAULTS);
    }

    public BrokerOptions withHeartbeat(Duration value) {
        return new BrokerOptions(endpoints, maxFrameBytes, value, workerThreads, maxWaitingCalls, shutdownGrace,
                serverName, realm, tls, meterRegistry, admission);
    }

    public BrokerOptions withMaxFrameBytes(int value) {
        return new BrokerOptions(endpoints, value, heartbeat, workerThreads, maxWaitingCalls, shutdownGrace,
                serverName, realm, tls, meterRegistry, admission);
    }

    public BrokerOptions withRealm(SecurityRealm value) {
        return new BrokerOptions(endpoints, maxFrameBytes, heartbeat, workerThreads, maxWaitingCalls, shutdownGrace,
                serverName, value, tls, meterRegistry, admission);
    }

    public BrokerOptions withTls(Map<String, String> value) {
        return new BrokerOptions(endpoints, maxFrameBytes, heartbeat, workerThreads, maxWaitingCalls, shutdownGrace,
                serverName, realm, value, meterRegistry, admission);
    }

    public BrokerOptions withAdmission(AdmissionLimits value) {
        return new BrokerOptions(endpoints, maxFrameBytes, heartbeat, workerThreads, maxWaitingCalls, shutdownGrace,
                serverName, realm, tls, meterRegistry, value);
    }

    public BrokerOptions withMeterRegistry(MeterRegistry value) {
        return new BrokerOptions(endpoints, maxFrameBytes, heartbeat, workerThreads, maxWaitingCalls, shutdownGrace,
                serverName, realm, tls, value, admission);
    }
}
