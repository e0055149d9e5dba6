package io.mikyu.it.app;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.transaction.Status;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What {@link OutageReceiverMdb} was given: every delivery and how its transaction ended, and apart from those the
 * deliveries whose transaction committed (a message is consumed only then; a delivery rolled back comes again).
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class DeliveryLog {

    private final List<String> delivered = new CopyOnWriteArrayList<>();
    private final List<String> committed = new CopyOnWriteArrayList<>();

    public void delivered(String body, boolean redelivered) {
        delivered.add(body + (redelivered ? " redelivered" : ""));
    }

    /** The end of a delivery's transaction: {@code jakarta.transaction.Status} as the transaction manager says. */
    public void completed(String body, int status) {
        delivered.add(body + " completed " + status);
        if (status == Status.STATUS_COMMITTED) {
            committed.add(body);
        }
    }

    public List<String> delivered() {
        return List.copyOf(delivered);
    }

    public List<String> committed() {
        return List.copyOf(committed);
    }
}
