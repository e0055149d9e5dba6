package io.mikyu.samples.jakartaee;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** The last orders the listener received, newest last, for the servlet to show. */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class ReceivedOrders {

    private static final int KEPT = 1000;

    private final Deque<String> items = new ArrayDeque<>();

    public synchronized void add(String item) {
        if (items.size() == KEPT) {
            items.removeFirst();
        }
        items.addLast(item);
    }

    public synchronized List<String> items() {
        return List.copyOf(items);
    }
}
