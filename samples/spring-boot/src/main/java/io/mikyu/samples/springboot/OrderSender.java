package io.mikyu.samples.springboot;

import org.springframework.boot.CommandLineRunner;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.stereotype.Component;

import java.util.List;

/** Sends the orders once the application has started. */
@Component
public class OrderSender implements CommandLineRunner {

    static final List<String> ORDERS = List.of("2 coffees", "1 tea", "3 croissants");

    private final JmsTemplate jms;

    public OrderSender(JmsTemplate jms) {
        this.jms = jms;
    }

    @Override
    public void run(String... args) {
        for (String order : ORDERS) {
            jms.convertAndSend("orders", order);   // returns once the store has it (fsynced: durability sync)
        }
    }
}
