package io.mikyu.engine.internal.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Where damaged files are kept as evidence: the queue's {@code quarantine/} folder, named with the time found. */
public final class Quarantine {

    public static final String DIRECTORY = "quarantine";

    private Quarantine() {
    }

    /** Copies {@code file} into {@code queueDir/quarantine/} and returns the copy's path. */
    public static Path copy(Path file, Path queueDir) throws IOException {
        Path q = queueDir.resolve(DIRECTORY);
        Files.createDirectories(q);
        Path target = q.resolve(file.getFileName() + "." + System.currentTimeMillis());
        Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
        return target;
    }
}
