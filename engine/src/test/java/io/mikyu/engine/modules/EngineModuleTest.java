package io.mikyu.engine.modules;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StoreOpener;
import io.mikyu.engine.spi.FilterCompiler;
import org.jctools.queues.MpscArrayQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine as a module ({@code io.mikyu.engine}): it exports its API packages and nothing of
 * {@code io.mikyu.engine.internal}, and code in another module cannot compile against an internal class.
 */
class EngineModuleTest {

    private static final Set<String> API = Set.of(
            "io.mikyu.engine", "io.mikyu.engine.config", "io.mikyu.engine.security", "io.mikyu.engine.spi");

    @Test
    void exportsExactlyTheApiPackages() {
        ModuleDescriptor engine = engineModule().descriptor();

        assertThat(engine.name()).isEqualTo("io.mikyu.engine");
        assertThat(engine.exports()).allSatisfy(e -> assertThat(e.isQualified()).as(e.toString()).isFalse());
        assertThat(engine.exports().stream().map(ModuleDescriptor.Exports::source)).containsExactlyInAnyOrderElementsOf(API);
        assertThat(engine.packages()).anyMatch(p -> p.startsWith("io.mikyu.engine.internal."));
        assertThat(engine.opens()).isEmpty();
    }

    @Test
    void providesItsStoreAndFilterCompilerAsServices() {
        ModuleDescriptor engine = engineModule().descriptor();

        assertThat(engine.provides().stream().map(ModuleDescriptor.Provides::service))
                .containsExactlyInAnyOrder(StoreOpener.class.getName(), FilterCompiler.class.getName());
    }

    @Test
    void anotherModuleCompilesAgainstTheApi(@TempDir Path dir) throws IOException {
        String errors = compileUser(dir, """
                package app;

                public class App {
                    public static io.mikyu.engine.Mikyu open(java.nio.file.Path dir) {
                        return io.mikyu.engine.Mikyu.open(dir);
                    }
                }
                """);

        assertThat(errors).isEmpty();
    }

    @Test
    void anotherModuleCannotSeeTheInternals(@TempDir Path dir) throws IOException {
        String errors = compileUser(dir, """
                package app;

                public class App {
                    public static Object open(java.nio.file.Path dir) {
                        return io.mikyu.engine.internal.store.Store.open(dir, io.mikyu.engine.EngineConfig.defaults());
                    }
                }
                """);

        assertThat(errors).contains("package io.mikyu.engine.internal.store is not visible")
                .contains("does not export it").contains("1 error");
    }

    @Test
    void aStoreOpensOnTheModulePath(@TempDir Path dir) throws IOException, InterruptedException {
        assertThat(compileUser(dir, """
                package app;

                public class App {
                    public static void main(String[] args) {
                        try (io.mikyu.engine.Mikyu store = io.mikyu.engine.Mikyu.open(java.nio.file.Path.of(args[0]))) {
                            store.createLog("events").append(io.mikyu.engine.Entry.of("one"));
                            System.out.println("stored " + store.log("events").endOffset());
                        }
                    }
                }
                """)).isEmpty();

        // A JVM of its own: only there is the engine a named module, found by its descriptor's services and requires.
        Path output = dir.resolve("app.out");
        Process app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--module-path", dir.resolve("out") + File.pathSeparator + modulePath(),
                "-m", "app/app.App", dir.resolve("store").toString())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertThat(app.waitFor(5, TimeUnit.MINUTES)).as("the app ends").isTrue();
        assertThat(app.exitValue()).as(Files.readString(output)).isZero();
        assertThat(Files.readString(output)).contains("stored 1");
    }

    /**
     * Compiles module {@code app} (which requires the engine) with {@code source} as its class, with the JDK's
     * {@code javac}; returns what it reported, empty if it compiled.
     */
    private static String compileUser(Path dir, String source) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src/app"));
        Files.writeString(dir.resolve("src/module-info.java"), "module app { requires io.mikyu.engine; }\n");
        Files.writeString(src.resolve("App.java"), source);
        ToolProvider javac = ToolProvider.findFirst("javac").orElseThrow();
        StringWriter out = new StringWriter();
        try (PrintWriter printer = new PrintWriter(out)) {
            // An empty class path: in process, javac would otherwise see this JVM's, engine classes included.
            int status = javac.run(printer, printer, "-d", dir.resolve("out").toString(), "--module-path", modulePath(),
                    "--class-path", Files.createDirectories(dir.resolve("no-classes")).toString(),
                    dir.resolve("src/module-info.java").toString(), src.resolve("App.java").toString());
            assertThat(status == 0).as("javac's status agrees with its report: " + out).isEqualTo(out.toString().isBlank());
        }
        return out.toString();
    }

    /** The engine's classes and the libraries its module requires (with micrometer's own), as a module path. */
    private static String modulePath() {
        return Stream.of(Mikyu.class, MeterRegistry.class, KeyValue.class, Observation.class, Logger.class,
                        MpscArrayQueue.class)
                .map(c -> location(c).toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static ModuleReference engineModule() {
        return ModuleFinder.of(location(Mikyu.class)).find("io.mikyu.engine").orElseThrow();
    }

    private static Path location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
