package io.mikyu.jms.classic;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.Claim;
import io.mikyu.engine.ClaimMode;
import io.mikyu.engine.ClaimedException;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.TaskQueue;
import jakarta.jms.JMSSecurityException;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the connections sharing one engine must agree on: client IDs in use, durable subscriptions with an active
 * consumer, and the consumers of shared subscriptions (a non-durable one is deleted when its last consumer
 * closes). These are engine {@link Claim}s, so over a broker they hold across every process connected to it, and
 * a process that dies gives its claims up with its connection.
 */
final class ProviderRegistry {

    private static final String CLIENT_ID = "jms/clientID/";
    private static final String SUBSCRIPTION = "jms/subscription/";
    private static final String TEMPORARY = "jms/temporary/";

    /** Engine queue handles by name, so a send does not look its queue up. */
    final ConcurrentHashMap<String, TaskQueue> taskQueues = new ConcurrentHashMap<>();
    final ConcurrentHashMap<String, LogQueue> logQueues = new ConcurrentHashMap<>();
    private final Mikyu engine;
    private final Map<String, Claim> held = new HashMap<>();
    private final Map<String, Deque<Claim>> sharedHeld = new HashMap<>();

    ProviderRegistry(Mikyu engine) {
        this.engine = engine;
    }

    /**
     * Takes the client ID for a connection; false if another connection (here or elsewhere) has it.
     *
     * @throws JMSSecurityException if a broker does not let this user use it
     */
    synchronized boolean claimClientId(String id) throws JMSSecurityException {
        return claimExclusive(CLIENT_ID + id);
    }

    synchronized void releaseClientId(String id) {
        release(CLIENT_ID + id);
    }

    /**
     * Claims a temporary destination's name for its connection before it is made: a broker deletes it once the
     * claim is free, so a process that dies leaves none behind.
     */
    synchronized void claimTemporary(String name) throws JMSSecurityException {
        if (!claimExclusive(TEMPORARY + name)) {
            throw new IllegalStateException("temporary destination " + name + " is claimed already");
        }
    }

    synchronized void releaseTemporary(String name) {
        release(TEMPORARY + name);
    }

    /** Marks an unshared durable subscription active; false if a consumer (here or elsewhere) already has it. */
    synchronized boolean activate(String group) throws JMSSecurityException {
        return claimExclusive(SUBSCRIPTION + group);
    }

    synchronized void deactivate(String group) {
        release(SUBSCRIPTION + group);
    }

    /** Whether any consumer, in any process, uses the subscription. */
    synchronized boolean isActive(String group) {
        return engine.claimHolders(SUBSCRIPTION + group) > 0;
    }

    /** A consumer joins a shared subscription; {@link IllegalStateException} if it is held exclusively. */
    synchronized void join(String group) throws JMSSecurityException {
        try {
            Claim c = engine.claim(SUBSCRIPTION + group, ClaimMode.SHARED);
            sharedHeld.computeIfAbsent(group, g -> new ArrayDeque<>()).add(c);
        } catch (AccessDeniedException e) {
            throw denied(e);
        } catch (ClaimedException e) {
            throw new IllegalStateException("subscription '" + group + "' is in use by a consumer that does not"
                    + " share it", e);
        }
    }

    /** A consumer leaves a shared subscription; true if it was the last one anywhere. */
    synchronized boolean leave(String group) {
        Deque<Claim> mine = sharedHeld.get(group);
        Claim c = mine == null ? null : mine.poll();
        if (mine != null && mine.isEmpty()) {
            sharedHeld.remove(group);
        }
        return (c == null ? engine.claimHolders(SUBSCRIPTION + group) : c.release()) == 0;
    }

    /**
     * Deletes a subscription's group of {@code topic} unless a consumer, in any process, uses it: one step on the
     * engine (or broker), so a consumer that joins meanwhile either keeps it or finds it gone and makes it anew.
     * False if it is in use or there is no such group.
     */
    boolean deleteUnlessUsed(String topic, String group) {
        return engine.deleteGroupUnlessClaimed(topic, group, SUBSCRIPTION + group);
    }

    /** The consumers of a subscription, in any process. */
    synchronized int users(String group) {
        return engine.claimHolders(SUBSCRIPTION + group);
    }

    private boolean claimExclusive(String name) throws JMSSecurityException {
        if (held.containsKey(name)) {
            return false;
        }
        try {
            held.put(name, engine.claim(name, ClaimMode.EXCLUSIVE));
            return true;
        } catch (AccessDeniedException e) {
            throw denied(e);
        } catch (ClaimedException e) {
            return false;
        }
    }

    /** A broker refused the claim: the user may not use that client ID (the broker's roles.*.clientIds). */
    private static JMSSecurityException denied(AccessDeniedException e) {
        JMSSecurityException j = new JMSSecurityException(e.getMessage());
        j.setLinkedException(e);
        j.initCause(e);
        return j;
    }

    private void release(String name) {
        Claim c = held.remove(name);
        if (c != null) {
            try {
                c.release();
            } catch (RuntimeException gone) {
                // the engine or the connection to it is gone, and the claim with it
            }
        }
    }
}
