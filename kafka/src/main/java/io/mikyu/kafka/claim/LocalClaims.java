package io.mikyu.kafka.claim;

import io.mikyu.engine.Claim;
import io.mikyu.engine.ClaimMode;
import io.mikyu.engine.ClaimedException;

import java.util.HashMap;
import java.util.Map;

/**
 * Claims on names, kept by this store handle only: Kafka has no shared lock a client could take for a name, so a
 * claim keeps out the other users of this handle (this process), not other processes. What an exclusive consumer
 * needs across processes Kafka gives through its groups instead (docs/kafka.md).
 */
public final class LocalClaims {

    private final Map<String, Holders> claims = new HashMap<>();

    /** Claims {@code name}; {@link ClaimedException} if it is held in a conflicting mode. */
    public synchronized Claim claim(String name, ClaimMode mode) {
        Holders holders = claims.get(name);
        if (holders != null && (mode == ClaimMode.EXCLUSIVE || holders.mode == ClaimMode.EXCLUSIVE)) {
            throw new ClaimedException("'" + name + "' is claimed " + holders.mode.name().toLowerCase(java.util.Locale.ROOT));
        }
        if (holders == null) {
            holders = new Holders(mode);
            claims.put(name, holders);
        }
        holders.count++;
        return new LocalClaim(name, mode);
    }

    public synchronized int holders(String name) {
        Holders holders = claims.get(name);
        return holders == null ? 0 : holders.count;
    }

    private synchronized int release(String name) {
        Holders holders = claims.get(name);
        if (holders == null) {
            return 0;
        }
        holders.count--;
        if (holders.count == 0) {
            claims.remove(name);
        }
        return holders.count;
    }

    private static final class Holders {
        final ClaimMode mode;
        int count;

        Holders(ClaimMode mode) {
            this.mode = mode;
        }
    }

    private final class LocalClaim implements Claim {
        private final String name;
        private final ClaimMode mode;
        private boolean released;

        LocalClaim(String name, ClaimMode mode) {
            this.name = name;
            this.mode = mode;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public ClaimMode mode() {
            return mode;
        }

        @Override
        public synchronized int release() {
            if (released) {
                return holders(name);
            }
            released = true;
            return LocalClaims.this.release(name);
        }
    }
}
