package io.mikyu.it.xa;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every delivery the inbox bean got, kept outside its transactions (a rolled-back delivery is recorded too): per
 * body, each attempt as {@code JMSRedelivered/JMSXDeliveryCount}, e.g. {@code false/1}, {@code true/2}.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class Attempts {

    private final Map<String, List<String>> byBody = new ConcurrentHashMap<>();

    public void record(String body, boolean redelivered, int deliveryCount) {
        byBody.computeIfAbsent(body, b -> new CopyOnWriteArrayList<>()).add(redelivered + "/" + deliveryCount);
    }

    public List<String> of(String body) {
        return List.copyOf(byBody.getOrDefault(body, List.of()));
    }
}
