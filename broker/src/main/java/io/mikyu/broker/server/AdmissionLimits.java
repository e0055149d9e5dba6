package io.mikyu.broker.server;

import java.time.Duration;

/**
 * What the broker lets in before it does any work for a client: how many connections, and how fast a remote
 * address may guess passwords. A password check (PBKDF2) costs a good part of a second on purpose; without these
 * limits a stream of bad logins, or of connections, takes the broker from every other client.
 *
 * @param maxConnections           connections open at once; past it a new one is refused at once
 * @param maxConnectionsPerAddress connections open at once from one IP address (Unix-socket clients are not
 *                                 counted per address)
 * @param authThreads              threads checking passwords, apart from the workers that serve requests
 * @param authQueue                logins waiting for one of them; past it a login is refused as busy
 * @param freeLoginFailures        failed logins from one address before it has to wait
 * @param maxLoginDelay            the longest it waits: the wait starts at a second and doubles with each further
 *                                 failure; a successful login from the address ends it
 */
public record AdmissionLimits(int maxConnections, int maxConnectionsPerAddress, int authThreads, int authQueue,
                              int freeLoginFailures, Duration maxLoginDelay) {

    public static final AdmissionLimits DEFAULTS = new AdmissionLimits(10_000, 1_000, 2, 64, 5,
            Duration.ofSeconds(30));

    public AdmissionLimits {
        if (maxConnections < 1 || maxConnectionsPerAddress < 1 || authThreads < 1 || authQueue < 1
                || freeLoginFailures < 0 || maxLoginDelay.isNegative()) {
            throw new IllegalArgumentException("admission limits must be positive: " + this);
        }
    }
}
