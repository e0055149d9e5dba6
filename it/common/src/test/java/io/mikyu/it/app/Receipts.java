package io.mikyu.it.app;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** What the message-driven bean received, in order, for the servlet to read back. */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class Receipts {

    private final List<String> bodies = new CopyOnWriteArrayList<>();

    public void record(String body) {
        bodies.add(body);
    }

    public List<String> bodies() {
        return List.copyOf(bodies);
    }
}
