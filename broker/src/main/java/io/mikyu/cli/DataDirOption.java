package io.mikyu.cli;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StoreLockedException;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * {@code --data-dir}: the store a command works on, opened in-process.
 *
 * <p>The default is per user, {@code $XDG_DATA_HOME/mikyu} ({@code ~/.local/share/mikyu}), and is created
 * readable by its owner only: a predictable, shared location (such as {@code /tmp/mikyu}) would let other users
 * read or plant messages.
 */
public final class DataDirOption {

    static final String ENV = "MIKYU_DATA_DIR";

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Data directory of the store (env MIKYU_DATA_DIR). Default: ${DEFAULT-VALUE}"
                    + " (created readable by you only).")
    Path dataDir;

    /** The data directory, created (owner-only) if it does not exist. */
    public Path directory() {
        Path dir = dataDir != null ? dataDir : DefaultLocation.path();
        if (!Files.isDirectory(dir)) {
            createOwnerOnly(dir);
        }
        return dir;
    }

    /** Opens the store in-process. */
    public Mikyu open() {
        return open(directory());
    }

    /** Opens the store in {@code dir} in-process, creating the directory (owner-only) if needed. */
    static Mikyu open(Path dir) {
        if (!Files.isDirectory(dir)) {
            createOwnerOnly(dir);
        }
        try {
            return Mikyu.open(dir);
        } catch (StoreLockedException e) {
            throw new CommandException(e.getMessage() + "; only one process at a time may open a data directory", e);
        }
    }

    static void createOwnerOnly(Path dir) {
        try {
            Path parent = dir.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                // createDirectory's permissions pass through the umask; set them exactly.
                Files.setPosixFilePermissions(dir, OWNER_ONLY);
            } else {
                Files.createDirectory(dir);
            }
        } catch (FileAlreadyExistsException e) {
            // Created concurrently, or a file in the way: Mikyu.open says which.
        } catch (IOException e) {
            throw new CommandException("cannot create data directory " + dir + ": " + e, e);
        }
    }

    /** Supplies the default of {@code --data-dir} so that {@code --help} shows the real path. */
    static final class DefaultLocation implements IDefaultValueProvider {

        @Override
        public String defaultValue(ArgSpec argSpec) {
            boolean ours = argSpec.userObject() instanceof Field field && field.getDeclaringClass() == DataDirOption.class;
            return ours ? path().toString() : null;
        }

        static Path path() {
            String explicit = System.getenv(ENV);
            if (explicit != null && !explicit.isBlank()) {
                return Path.of(explicit);
            }
            // XDG Base Directory spec: an unset or empty XDG_DATA_HOME means ~/.local/share.
            String xdg = System.getenv("XDG_DATA_HOME");
            Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg)
                    : Path.of(System.getProperty("user.home"), ".local", "share");
            return base.resolve("mikyu");
        }
    }
}
