package io.mikyu.selector;

import io.mikyu.engine.spi.FilterCompiler;
import org.junit.jupiter.api.Test;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The selector as a module ({@code io.mikyu.selector}): one exported package, and its two filter compilers. */
class SelectorModuleTest {

    @Test
    void exportsTheSelectorPackageAndProvidesItsCompilers() {
        ModuleDescriptor selector = descriptor();

        assertThat(selector.exports()).singleElement().satisfies(e -> {
            assertThat(e.source()).isEqualTo("io.mikyu.selector");
            assertThat(e.isQualified()).isFalse();
        });
        assertThat(selector.provides()).singleElement().satisfies(p -> {
            assertThat(p.service()).isEqualTo(FilterCompiler.class.getName());
            assertThat(p.providers()).containsExactlyInAnyOrder(
                    SelectorCompiler.class.getName(), NoLocalFilter.Compiler.class.getName());
        });
    }

    private static ModuleDescriptor descriptor() {
        try {
            Path classes = Path.of(Selector.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return ModuleFinder.of(classes).find("io.mikyu.selector").orElseThrow().descriptor();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
