package io.mikyu.kafka.priority;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The high priority bands that a store handle of this JVM made or saw on a cluster: another handle of the JVM (a JMS
 * consumer's connection, while a producer's connection made the band) knows of a band at once, without asking the
 * cluster. A band made by another process is found by asking the cluster (at most once a second per handle).
 */
public final class BandsSeen {

    private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

    private BandsSeen() {
    }

    public static void seen(String clusterId, String topic) {
        SEEN.add(key(clusterId, topic));
    }

    public static boolean contains(String clusterId, String topic) {
        return SEEN.contains(key(clusterId, topic));
    }

    /** The band's topic was deleted (its queue was). */
    public static void deleted(String clusterId, String topic) {
        SEEN.remove(key(clusterId, topic));
    }

    private static String key(String clusterId, String topic) {
        return clusterId + "/" + topic;
    }
}
