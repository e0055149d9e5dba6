package io.mikyu.bench.jms;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProviderConfigTest {

    @Test
    void placeholdersAreReplacedAndBenchKeysKeptOutOfTheJndiEnvironment() {
        Properties raw = new Properties();
        raw.setProperty("java.naming.factory.initial", "some.Factory");
        raw.setProperty("connectionFactory.ConnectionFactory", "vm://${dir}/m?durability=${durability}");
        raw.setProperty("bench.embed", "artemis");

        ProviderConfig config = ProviderConfig.of(raw, Map.of("dir", "/d", "durability", "sync"));

        assertThat(config.jndiEnvironment())
                .containsEntry("connectionFactory.ConnectionFactory", "vm:///d/m?durability=sync")
                .containsEntry("java.naming.factory.initial", "some.Factory")
                .doesNotContainKey("bench.embed");
        assertThat(config.embed()).isEqualTo("artemis");
    }

    @Test
    void placeholderWithoutValueIsAnError() {
        assertThatThrownBy(() -> ProviderConfig.substitute("tcp://127.0.0.1:${port}", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("${port}");
    }

    @Test
    void everyJndiFileOfTheModuleNamesTheFactoryAndBothDestinations() throws Exception {
        Map<String, String> values = Map.of("dir", "/d", "durability", "async", "port", "29600");
        for (String name : new String[] {"mikyu-vm", "artemis-vm", "mikyu-tcp", "artemis-tcp"}) {
            Properties env = ProviderConfig.load(Path.of("jndi", name + ".properties"), values).jndiEnvironment();
            assertThat(env).as(name).containsKeys("java.naming.factory.initial",
                    "connectionFactory." + Run.FACTORY, "queue." + Run.QUEUE, "topic." + Run.TOPIC);
        }
    }
}
