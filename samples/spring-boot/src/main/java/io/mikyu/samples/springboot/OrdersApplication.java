package io.mikyu.samples.springboot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;

/**
 * Sends a few orders with {@code JmsTemplate} ({@link OrderSender}) and receives them with a {@code @JmsListener}
 * ({@link OrderListener}), on an embedded mikyu store in {@code ./mikyu-data} (or a daemon: {@code
 * --spring.mikyu.url=tcp://127.0.0.1:7420}); stops once they have all arrived.
 */
@SpringBootApplication
public class OrdersApplication {

    public static void main(String[] args) throws InterruptedException {
        ConfigurableApplicationContext context = SpringApplication.run(OrdersApplication.class, args);
        boolean all = context.getBean(OrderListener.class).awaitAll(Duration.ofSeconds(30));
        System.exit(SpringApplication.exit(context, () -> all ? 0 : 1));
    }
}
