package io.mikyu.it;

import java.nio.file.Files;
import java.nio.file.Path;

/** The resource adapter under test: the file that -Dmikyu.rar names (the build sets it). */
public final class Rar {

    private Rar() {
    }

    public static Path path() {
        String rar = System.getProperty("mikyu.rar");
        if (rar == null) {
            throw new IllegalStateException("-Dmikyu.rar is not set: the build sets it to the adapter's .rar");
        }
        return Path.of(rar);
    }

    /** For {@code @EnabledIf}: the tests that need the adapter are skipped while it has not been built. */
    public static boolean present() {
        return Files.isRegularFile(path());
    }
}
