package io.mikyu.client;

import io.mikyu.engine.Dialer;
import org.junit.jupiter.api.Test;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client as a module ({@code io.mikyu.client}): it exports {@code io.mikyu.client} to everyone, its wire
 * protocol and transports only to the modules that speak them, and provides the engine's {@link Dialer}.
 */
class ClientModuleTest {

    @Test
    void exportsTheClientAndLendsProtocolAndTransportToTheBroker() {
        ModuleDescriptor client = descriptor();

        Map<String, Set<String>> exports = client.exports().stream()
                .collect(Collectors.toMap(ModuleDescriptor.Exports::source, ModuleDescriptor.Exports::targets));
        assertThat(exports).containsOnly(
                Map.entry("io.mikyu.client", Set.of()),
                Map.entry("io.mikyu.protocol", Set.of("io.mikyu.broker")),
                Map.entry("io.mikyu.transport", Set.of("io.mikyu.broker", "io.mikyu.junit5")));
        assertThat(client.opens()).isEmpty();
    }

    @Test
    void providesTheDialer() {
        assertThat(descriptor().provides()).singleElement().satisfies(p -> {
            assertThat(p.service()).isEqualTo(Dialer.class.getName());
            assertThat(p.providers()).containsExactly(RemoteDialer.class.getName());
        });
    }

    private static ModuleDescriptor descriptor() {
        try {
            Path classes = Path.of(RemoteDialer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return ModuleFinder.of(classes).find("io.mikyu.client").orElseThrow().descriptor();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
