package io.mikyu.cli;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StoreLockedException;
import io.mikyu.engine.config.MikyuConfig;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code --data-dir} and {@code --config}: the store a command works on, opened in-process with the engine
 * settings of the configuration (see {@link MikyuConfig}: defaults, the config file, {@code -Dmikyu.<key>}, then
 * this command's flags).
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

    @Option(names = "--config", paramLabel = "FILE",
            description = "Configuration file (else -Dmikyu.config or env MIKYU_CONFIG); 'mikyu config' prints the"
                    + " effective settings.")
    Path configFile;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** The effective configuration, with {@code flags} (key → value) as the command line's own values. */
    public MikyuConfig config(Map<String, String> flags) {
        Map<String, String> explicit = new LinkedHashMap<>(flags);
        if (dataDirGiven()) {
            explicit.put(MikyuConfig.Key.DATA_DIR.key(), dataDir.toString());
        }
        return MikyuConfig.load(configFile, explicit, "command line");
    }

    public MikyuConfig config() {
        return config(Map.of());
    }

    /** Whether {@code --data-dir} was on the command line (picocli fills in the default otherwise). */
    private boolean dataDirGiven() {
        if (dataDir == null) {
            return false;
        }
        ParseResult parsed = mixee == null ? null : mixee.commandLine().getParseResult();
        return parsed == null || parsed.hasMatchedOption("--data-dir");
    }

    /** The data directory, created (owner-only) if it does not exist. */
    public Path directory() {
        return directory(config());
    }

    Path directory(MikyuConfig config) {
        String configured = config.get(MikyuConfig.Key.DATA_DIR);
        Path dir = configured != null ? Path.of(configured) : DefaultLocation.path();
        if (!Files.isDirectory(dir)) {
            createOwnerOnly(dir);
        }
        return dir;
    }

    /** Opens the store in-process. */
    public Mikyu open() {
        MikyuConfig config = config();
        return open(config, config.engineConfig().build());
    }

    /** Opens the store in {@code dir} in-process with default engine settings (the shell's {@code open DIR}). */
    static Mikyu open(Path dir) {
        if (!Files.isDirectory(dir)) {
            createOwnerOnly(dir);
        }
        return openIn(dir, io.mikyu.engine.EngineConfig.defaults());
    }

    Mikyu open(MikyuConfig config, io.mikyu.engine.EngineConfig engine) {
        return openIn(directory(config), engine);
    }

    private static Mikyu openIn(Path dir, io.mikyu.engine.EngineConfig engine) {
        try {
            return Mikyu.open(dir, engine);
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
            boolean ours = argSpec.userObject() instanceof Field field && field.getDeclaringClass() == DataDirOption.class
                    && field.getName().equals("dataDir");
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
