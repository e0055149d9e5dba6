package io.mikyu.samples.springboot;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The sample starts, sends its orders and receives every one of them, on a store in a temporary directory. */
@SpringBootTest
@DirtiesContext
class OrdersApplicationTest {

    @TempDir
    static Path dir;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        registry.add("spring.mikyu.embedded.directory", () -> dir.resolve("mikyu-data").toString());
    }

    @Autowired
    OrderListener listener;

    @Test
    void everyOrderSentArrives() throws InterruptedException {
        assertThat(listener.awaitAll(Duration.ofSeconds(60))).isTrue();
        assertThat(listener.received()).containsExactlyInAnyOrderElementsOf(OrderSender.ORDERS);
    }
}
