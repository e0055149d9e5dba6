package io.mikyu.broker.server;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * What a JMS connection leaves on the broker when it ends without closing: the temporary queues and topics it made
 * and the groups of its shared non-durable subscriptions. The provider holds a claim on each
 * ({@code jms/temporary/tmp.…}, {@code jms/subscription/sn.…}); once the connection's claims are released and, after
 * a grace period in which a reconnecting client takes them again, nobody holds them, this deletes what they name.
 */
final class AbandonedJmsState {

    private static final Logger LOG = LoggerFactory.getLogger(AbandonedJmsState.class);

    private AbandonedJmsState() {
    }

    /** Whether {@code claim} names state the broker deletes once nobody holds the claim. */
    static boolean reclaims(String claim) {
        return claim.startsWith(ClaimRules.TEMPORARY) || claim.startsWith(ClaimRules.SUBSCRIPTION + "sn.");
    }

    /** Deletes what the claims name that nobody holds (any more). */
    static void reclaim(Mikyu store, List<String> claims) {
        for (String claim : claims) {
            try {
                if (store.claimHolders(claim) > 0) {
                    continue; // taken again: a client that reconnected, or another consumer of the subscription
                }
                if (claim.startsWith(ClaimRules.TEMPORARY)) {
                    deleteTemporary(store, claim.substring(ClaimRules.TEMPORARY.length()));
                } else {
                    deleteSubscription(store, claim);
                }
            } catch (RuntimeException e) {
                LOG.debug("reclaiming {} failed", claim, e);
            }
        }
    }

    private static void deleteTemporary(Mikyu store, String name) {
        if (store.deleteTaskQueue(name) || store.deleteLog(name)) {
            LOG.info("deleted temporary destination {}: its connection ended without deleting it", name);
        }
    }

    private static void deleteSubscription(Mikyu store, String claim) {
        String group = claim.substring(ClaimRules.SUBSCRIPTION.length());
        for (String log : store.list(QueueKind.LOG)) {
            if (store.log(log).groups().contains(group) && store.deleteGroupUnlessClaimed(log, group, claim)) {
                LOG.info("deleted shared subscription {} of {}: its last consumer's connection ended", group, log);
            }
        }
    }
}
