package io.mikyu.engine.internal.store;

import io.mikyu.engine.Claim;
import io.mikyu.engine.ClaimMode;
import io.mikyu.engine.ClaimedException;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/** The claims on one store's names: an exclusive holder, or a count of shared ones. Thread-safe. */
final class ClaimRegistry {

    private static final class Held {
        final ClaimMode mode;
        int holders;

        Held(ClaimMode mode) {
            this.mode = mode;
        }
    }

    private final Map<String, Held> byName = new HashMap<>();

    /** Takes a claim on {@code name}; {@link ClaimedException} if {@code mode} conflicts with its holders. */
    synchronized Claim claim(String name, ClaimMode mode) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(mode, "mode");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a claim needs a name");
        }
        Held held = byName.get(name);
        if (held != null && (mode == ClaimMode.EXCLUSIVE || held.mode == ClaimMode.EXCLUSIVE)) {
            throw new ClaimedException("'" + name + "' is claimed " + (held.mode == ClaimMode.EXCLUSIVE
                    ? "exclusively" : "by " + held.holders + " holder(s)") + " already");
        }
        if (held == null) {
            held = new Held(mode);
            byName.put(name, held);
        }
        held.holders++;
        Held mine = held;
        return new Claim() {
            private boolean released;

            @Override
            public String name() {
                return name;
            }

            @Override
            public ClaimMode mode() {
                return mode;
            }

            @Override
            public int release() {
                synchronized (ClaimRegistry.this) {
                    if (!released) {
                        released = true;
                        if (--mine.holders == 0 && byName.get(name) == mine) {
                            byName.remove(name);
                        }
                    }
                    return holders(name);
                }
            }

            @Override
            public String toString() {
                return "Claim[" + name + ", " + mode + "]";
            }
        };
    }

    /**
     * Runs {@code action} if nobody holds a claim on {@code name}, with claims on every name waiting until it is
     * done; returns its result, or {@code false} (not run) if the name is claimed.
     */
    synchronized boolean ifUnclaimed(String name, java.util.function.BooleanSupplier action) {
        return !byName.containsKey(name) && action.getAsBoolean();
    }

    /** How many hold a claim on {@code name}. */
    synchronized int holders(String name) {
        Held held = byName.get(name);
        return held == null ? 0 : held.holders;
    }
}
