package io.mikyu.cli;

import io.mikyu.engine.config.ConfigKey;
import io.mikyu.engine.config.MikyuConfig;
import io.mikyu.engine.config.MikyuConfig.Setting;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code mikyu config}: every configuration key, its effective value and where the value came from (default, the
 * config file, a {@code -Dmikyu.<key>} system property, the command line). Passwords print as {@code ****}.
 */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = {"Prints the effective configuration: every key, its value, and where the value came from.",
            "Precedence, weakest first: default < config file (--config, -Dmikyu.config, $MIKYU_CONFIG)"
                + " < system property -Dmikyu.<key> < command-line flag or URL parameter."})
final class ConfigCommand implements Callable<Integer> {

    @Mixin
    DataDirOption dataDir;

    @Option(names = "--describe", description = "Add a line saying what each key means.")
    boolean describe;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        MikyuConfig config = dataDir.config();
        PrintWriter out = spec.commandLine().getOut();
        List<Setting> settings = config.settings();
        int keyWidth = settings.stream().mapToInt(s -> s.key().length()).max().orElse(10);
        int valueWidth = Math.min(48, settings.stream().mapToInt(s -> value(s).length()).max().orElse(10));
        out.println(pad("KEY", keyWidth) + "  " + pad("VALUE", valueWidth) + "  SOURCE");
        for (Setting s : settings) {
            out.println(pad(s.key(), keyWidth) + "  " + pad(value(s), valueWidth) + "  " + source(s));
            if (describe) {
                for (ConfigKey k : MikyuConfig.keys()) {
                    if (k.key().equals(s.key())) {
                        out.println("    " + k.description());
                    }
                }
            }
        }
        out.flush();
        return 0;
    }

    private static String value(Setting s) {
        if (s.key().equals(MikyuConfig.Key.DATA_DIR.key()) && s.value().isEmpty()) {
            return DataDirOption.DefaultLocation.path().toString();
        }
        return s.value().isEmpty() ? "-" : s.printableValue();
    }

    private static String source(Setting s) {
        if (s.key().equals(MikyuConfig.Key.DATA_DIR.key()) && s.value().isEmpty()) {
            return "default ($" + DataDirOption.ENV + ", else $XDG_DATA_HOME/mikyu)";
        }
        return s.source();
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
