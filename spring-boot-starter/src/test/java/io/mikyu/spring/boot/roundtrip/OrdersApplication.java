package io.mikyu.spring.boot.roundtrip;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.stereotype.Component;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** An application as one writes it: Boot's JMS support and a listener, mikyu from the starter alone. */
@SpringBootApplication
class OrdersApplication {

    @Component
    static class OrderListener {
        final BlockingQueue<String> received = new LinkedBlockingQueue<>();

        @JmsListener(destination = "orders")
        void onOrder(String order) {
            received.add(order);
        }
    }
}
