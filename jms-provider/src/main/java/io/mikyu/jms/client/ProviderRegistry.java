package io.mikyu.jms.client;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the connections sharing one engine must agree on: client IDs in use, durable subscriptions with an active
 * consumer, and the consumers of shared non-durable subscriptions (deleted when their last consumer closes).
 */
final class ProviderRegistry {

    /** Engine queue handles by name, so a send does not look its queue up. */
    final java.util.concurrent.ConcurrentHashMap<String, io.mikyu.engine.TaskQueue> taskQueues =
            new java.util.concurrent.ConcurrentHashMap<>();
    final java.util.concurrent.ConcurrentHashMap<String, io.mikyu.engine.LogQueue> logQueues =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final Set<String> clientIds = new HashSet<>();
    private final Set<String> activeSubscriptions = new HashSet<>();
    private final Map<String, Integer> sharedUsers = new HashMap<>();

    synchronized boolean claimClientId(String id) {
        return clientIds.add(id);
    }

    synchronized void releaseClientId(String id) {
        clientIds.remove(id);
    }

    /** Marks an unshared durable subscription active; false if a consumer already has it. */
    synchronized boolean activate(String group) {
        return activeSubscriptions.add(group);
    }

    synchronized void deactivate(String group) {
        activeSubscriptions.remove(group);
    }

    synchronized boolean isActive(String group) {
        return activeSubscriptions.contains(group) || sharedUsers.getOrDefault(group, 0) > 0;
    }

    synchronized void join(String group) {
        sharedUsers.merge(group, 1, Integer::sum);
    }

    /** Returns true if this was the last consumer of the shared subscription. */
    synchronized boolean leave(String group) {
        int n = sharedUsers.getOrDefault(group, 0) - 1;
        if (n <= 0) {
            sharedUsers.remove(group);
            return true;
        }
        sharedUsers.put(group, n);
        return false;
    }

    synchronized int users(String group) {
        return sharedUsers.getOrDefault(group, 0);
    }
}
