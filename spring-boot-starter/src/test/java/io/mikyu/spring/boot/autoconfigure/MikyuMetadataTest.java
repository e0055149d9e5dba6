package io.mikyu.spring.boot.autoconfigure;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata IDEs complete {@code spring.mikyu.*} from, as the configuration processor generated
 * it into the jar (merged with the additional metadata): every property there, each described.
 */
class MikyuMetadataTest {

    @Test
    void everyPropertyIsListedWithADescription() throws IOException {
        List<Map<String, Object>> properties;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("generated metadata on the class path").isNotNull();
            properties = JsonPath.parse(in).read("$.properties");
        }
        assertThat(properties).extracting(p -> p.get("name")).contains("spring.mikyu.url", "spring.mikyu.user",
                "spring.mikyu.password", "spring.mikyu.durability", "spring.mikyu.client-id", "spring.mikyu.prefetch",
                "spring.mikyu.max-attempts", "spring.mikyu.redelivery-delay", "spring.mikyu.lease",
                "spring.mikyu.transaction-timeout", "spring.mikyu.reconnect", "spring.mikyu.options",
                "spring.mikyu.embedded.directory", "spring.mikyu.pool.enabled", "spring.mikyu.pool.max-connections",
                "management.health.mikyu.enabled");
        assertThat(properties).allSatisfy(p -> assertThat((String) p.get("description")).as("%s", p.get("name"))
                .isNotBlank());
        assertThat(properties).filteredOn(p -> p.get("name").equals("spring.mikyu.embedded.directory"))
                .singleElement().satisfies(p -> assertThat(p.get("defaultValue")).isEqualTo(MikyuUrl.DEFAULT_DIRECTORY));
        assertThat(properties).filteredOn(p -> p.get("name").equals("spring.mikyu.durability"))
                .singleElement().satisfies(p -> assertThat(p.get("type"))
                        .isEqualTo(MikyuProperties.Durability.class.getName()));
    }
}
