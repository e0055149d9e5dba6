package io.mikyu.kafka.delay;

/**
 * The delay tiers of a store: topics {@code <prefix>.delay.<k>}, tier {@code k} holding a record for
 * {@code 4^k} seconds (1 s, 4 s, 16 s, ... about 4.5 h for the top tier, {@value #TIERS} tiers). A record waiting
 * {@code R} more milliseconds goes to the highest tier whose hold is not longer than {@code R} (tier 0 if
 * {@code R} is under a second); when its hold has passed it is forwarded to the tier of what is left, or to its task
 * queue once nothing is left. A record is never forwarded to its queue before its time.
 *
 * <p>Why tiers: a topic is read in order, so a record due early must not sit behind one due later. Within one tier
 * every record is held equally long, so records come due in the order they were written (tier 0 aside, whose records
 * are due within a second of being written: one can be late by less than that).
 */
public final class DelayTiers {

    /** How many tiers there are; a delay longer than the top tier's hold goes round the top tier again. */
    public static final int TIERS = 8;
    private static final long BASE_MILLIS = 1000;

    private final String prefix;

    public DelayTiers(String topicPrefix) {
        this.prefix = topicPrefix + ".delay.";
    }

    /** How long tier {@code tier} holds a record. */
    public static long holdMillis(int tier) {
        if (tier < 0 || tier >= TIERS) {
            throw new IllegalArgumentException("no delay tier " + tier + " (0 to " + (TIERS - 1) + ")");
        }
        return BASE_MILLIS << (2 * tier);
    }

    /** The tier for a record that must wait {@code remainingMillis} (more than 0) longer. */
    public static int tierFor(long remainingMillis) {
        int tier = 0;
        while (tier + 1 < TIERS && holdMillis(tier + 1) <= remainingMillis) {
            tier++;
        }
        return tier;
    }

    /**
     * When a record of tier {@code tier} written at {@code writtenAt} is to be forwarded: when its hold has passed,
     * or at {@code deliverAt} if that is sooner (tier 0's records, which wait less than its hold).
     */
    public static long forwardAt(int tier, long writtenAt, long deliverAt) {
        return Math.min(writtenAt + holdMillis(tier), deliverAt);
    }

    /** The topic of tier {@code tier}. */
    public String topic(int tier) {
        holdMillis(tier);
        return prefix + tier;
    }

    /** The tier of a topic of these tiers, or -1 if it is not one. */
    public int tierOf(String topic) {
        if (!topic.startsWith(prefix)) {
            return -1;
        }
        try {
            int tier = Integer.parseInt(topic.substring(prefix.length()));
            return tier >= 0 && tier < TIERS ? tier : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** A regular expression matching exactly the tiers' topics. */
    public String topicPattern() {
        return java.util.regex.Pattern.quote(prefix) + "[0-" + (TIERS - 1) + "]";
    }
}
