package io.mikyu.jms;

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
 * The JMS provider as a module ({@code io.mikyu.jms}): applications see the connection factories and destinations
 * and the JNDI context; the packages the resource adapter and the JUnit 5 extension share are exported to them
 * alone, and the implementation to no one.
 */
class JmsProviderModuleTest {

    @Test
    void exportsTheApiToAllAndSharedPackagesOnlyToTheirUsers() {
        ModuleDescriptor jms = descriptor();

        Map<String, Set<String>> exports = jms.exports().stream()
                .collect(Collectors.toMap(ModuleDescriptor.Exports::source, ModuleDescriptor.Exports::targets));
        assertThat(exports).containsOnly(
                Map.entry("io.mikyu.jms", Set.of()),
                Map.entry("io.mikyu.jms.jndi", Set.of()),
                Map.entry("io.mikyu.jms.config", Set.of("io.mikyu.jca", "io.mikyu.junit5")),
                Map.entry("io.mikyu.jms.context", Set.of("io.mikyu.jca")),
                Map.entry("io.mikyu.jms.spi", Set.of("io.mikyu.jca")),
                Map.entry("io.mikyu.jms.embedded", Set.of("io.mikyu.junit5")));
        assertThat(jms.opens()).isEmpty();
    }

    @Test
    void usesAndProvidesTheConnectionOpener() {
        ModuleDescriptor jms = descriptor();

        assertThat(jms.uses()).containsExactly(ConnectionOpener.class.getName());
        assertThat(jms.provides()).singleElement()
                .satisfies(p -> assertThat(p.service()).isEqualTo(ConnectionOpener.class.getName()));
    }

    private static ModuleDescriptor descriptor() {
        try {
            Path classes = Path.of(ConnectionOpener.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return ModuleFinder.of(classes).find("io.mikyu.jms").orElseThrow().descriptor();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
