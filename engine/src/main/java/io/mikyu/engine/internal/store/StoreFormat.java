package io.mikyu.engine.internal.store;

import io.mikyu.engine.MikyuException;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.internal.files.DurableFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The layout version of a data directory, in {@code <data>/FORMAT} ({@code "mikyu-store <version>\n"}). A
 * directory of an older version is upgraded when it is opened and then marked current; a newer one is refused
 * rather than misread (so an older mikyu refuses a directory this one has upgraded).
 *
 * <pre>
 *   1  a log queue's shared groups in its folder "shared", transaction records naming them with the kind "shared"
 *   2  the folder is "shared-groups", the kind "shared-group" (records of version 1 are still read: {@code TxTarget})
 * </pre>
 */
final class StoreFormat {

    static final int CURRENT = 2;
    static final String FILE_NAME = "FORMAT";
    private static final String PREFIX = "mikyu-store ";
    private static final Logger LOG = LoggerFactory.getLogger(StoreFormat.class);

    private StoreFormat() {
    }

    /**
     * Checks the version of {@code dataDir}, upgrades it if it is older, and marks it current. Every step of an
     * upgrade can be repeated, and the version is written last: a crash midway leaves the old version, and the next
     * open goes on from where this one stopped. A directory without the file is new and is marked current at once.
     */
    static void openOrUpgrade(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            write(file);
            return;
        }
        int version = read(dataDir, file);
        if (version == CURRENT) {
            return;
        }
        // version 1 → 2
        SharedGroupsRename.run(dataDir.resolve(QueueKind.LOG.directory()));
        write(file);
        LOG.info("data directory {} upgraded from format {} to {}", dataDir, version, CURRENT);
    }

    private static int read(Path dataDir, Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int version = -1;
        if (text.startsWith(PREFIX) && text.endsWith("\n")) {
            try {
                version = Integer.parseInt(text.substring(PREFIX.length(), text.length() - 1));
            } catch (NumberFormatException e) {
                version = -1;
            }
        }
        if (version < 1 || version > CURRENT) {
            throw new MikyuException("data directory " + dataDir + " has format '" + text.trim()
                    + "', this mikyu reads '" + PREFIX + "1' to '" + PREFIX + CURRENT + "'"
                    + (version > CURRENT ? " (a newer mikyu wrote it)" : ""));
        }
        return version;
    }

    private static void write(Path file) throws IOException {
        DurableFiles.write(file, (PREFIX + CURRENT + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
