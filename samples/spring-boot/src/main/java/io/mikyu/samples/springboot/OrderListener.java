package io.mikyu.samples.springboot;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Receives the orders; a message is acknowledged when {@link #onOrder} returns, delivered again if it throws. */
@Component
public class OrderListener {

    private static final Logger LOG = LoggerFactory.getLogger(OrderListener.class);

    private final List<String> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch all = new CountDownLatch(OrderSender.ORDERS.size());

    @JmsListener(destination = "orders")
    public void onOrder(String order) {
        LOG.info("received order: {}", order);
        received.add(order);
        all.countDown();
    }

    public List<String> received() {
        return received;
    }

    /** Whether as many orders as were sent arrived within {@code timeout}. */
    public boolean awaitAll(Duration timeout) throws InterruptedException {
        return all.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
