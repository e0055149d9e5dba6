package io.mikyu.junit5;

import io.mikyu.engine.Durability;

import java.time.Duration;
import java.util.Map;

/**
 * Run by {@link WithoutTheBrokerTest} in a JVM whose class path lacks mikyu's broker: opens a store without the broker
 * option (must work) and one with it (must say what to add). Prints one line per outcome.
 */
public final class WithoutBrokerMain {

    private WithoutBrokerMain() {
    }

    public static void main(String[] args) {
        try (TemporaryStore store = TemporaryStore.open(options(false))) {
            store.queues().send("q", "x");
            System.out.println("without broker option: depth " + store.queues().depth("q"));
        }
        try (TemporaryStore store = TemporaryStore.open(options(true))) {
            System.out.println("with broker option: opened " + store);
        } catch (RuntimeException e) {
            System.out.println("with broker option: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static StoreOptions options(boolean broker) {
        return new StoreOptions(StoreLifecycle.PER_TEST, true, Durability.ASYNC, broker, Map.of(),
                Duration.ofSeconds(30), null);
    }
}
