package io.mikyu.jca.testkit;

import jakarta.jms.Message;
import jakarta.transaction.TransactionManager;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A bean whose deliveries wait until {@code sessions} sessions (each delivers on a thread of its own) have begun
 * one: the messages are then spread over several sessions whatever the machine's timing, rather than by a bean that
 * sleeps a little. Once {@code atMost} has passed it holds nothing any more (a test counting the threads then sees
 * the adapter did not spread them).
 */
public final class SessionsMeet implements TestEndpointFactory.Bean {

    private final int sessions;
    private final long giveUpAt;
    private final Set<String> threads = new HashSet<>();

    public SessionsMeet(int sessions, Duration atMost) {
        this.sessions = sessions;
        this.giveUpAt = System.nanoTime() + atMost.toNanos();
    }

    @Override
    public void onMessage(Message message, TransactionManager tm) throws InterruptedException {
        synchronized (threads) {
            threads.add(Thread.currentThread().getName());
            threads.notifyAll();
            long left;
            while (threads.size() < sessions && (left = giveUpAt - System.nanoTime()) > 0) {
                TimeUnit.NANOSECONDS.timedWait(threads, left);
            }
        }
    }
}
