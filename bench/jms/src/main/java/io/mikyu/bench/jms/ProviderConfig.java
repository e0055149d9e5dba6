package io.mikyu.bench.jms;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A provider as a JNDI properties file: the JNDI environment the bench creates its {@code InitialContext} with, plus
 * keys of the bench's own ({@code bench.*}, left out of the environment). Values may hold placeholders, replaced for
 * each run: {@code ${dir}} (a fresh directory), {@code ${durability}} ({@code sync} or {@code async}, the case's) and
 * {@code ${port}} (the loopback port of a broker started for the run).
 *
 * <p>Bench keys: {@code bench.embed=artemis} starts an ActiveMQ Artemis server in the bench's JVM before the lookup
 * (its data in {@code ${dir}}, its journal synced or not as the case's durability says).
 */
final class ProviderConfig {

    static final String BENCH_PREFIX = "bench.";
    static final String EMBED = "bench.embed";

    private final Properties jndi;
    private final Map<String, String> bench;

    private ProviderConfig(Properties jndi, Map<String, String> bench) {
        this.jndi = jndi;
        this.bench = bench;
    }

    static ProviderConfig load(Path file, Map<String, String> placeholders) throws IOException {
        Properties raw = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            raw.load(r);
        }
        return of(raw, placeholders);
    }

    static ProviderConfig of(Properties raw, Map<String, String> placeholders) {
        Properties jndi = new Properties();
        Map<String, String> bench = new TreeMap<>();
        for (String key : raw.stringPropertyNames()) {
            String value = substitute(raw.getProperty(key), placeholders);
            if (key.startsWith(BENCH_PREFIX)) {
                bench.put(key, value);
            } else {
                jndi.setProperty(key, value);
            }
        }
        return new ProviderConfig(jndi, bench);
    }

    /** Replaces every {@code ${name}}; a placeholder without a value is an error, not an empty string. */
    static String substitute(String value, Map<String, String> placeholders) {
        StringBuilder out = new StringBuilder();
        int from = 0;
        while (true) {
            int start = value.indexOf("${", from);
            if (start < 0) {
                return out.append(value, from, value.length()).toString();
            }
            int end = value.indexOf('}', start);
            if (end < 0) {
                throw new IllegalArgumentException("unclosed placeholder in '" + value + "'");
            }
            String name = value.substring(start + 2, end);
            String replacement = placeholders.get(name);
            if (replacement == null) {
                throw new IllegalArgumentException("no value for ${" + name + "} in '" + value + "' (see --dir, --port)");
            }
            out.append(value, from, start).append(replacement);
            from = end + 1;
        }
    }

    Properties jndiEnvironment() {
        Properties copy = new Properties();
        copy.putAll(jndi);
        return copy;
    }

    /** The server to start in this JVM, or null. */
    String embed() {
        return bench.get(EMBED);
    }
}
