package io.mikyu.cli;

import io.mikyu.engine.security.PasswordHash;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * {@code mikyu passwd USER}: asks for a password (twice, without echo, on a terminal; else the first line of
 * stdin) and prints the config line that stores it hashed, {@code users.USER.password = $pbkdf2-sha256$…}.
 */
@Command(name = "passwd", mixinStandardHelpOptions = true,
        description = {"Hashes a password for the config file (PBKDF2-HMAC-SHA256, random salt) and prints the line",
            "users.USER.password = ...; reads the password from the terminal, or the first line of stdin."})
final class PasswdCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "USER", arity = "0..1",
            description = "The user; without it only the hash is printed.")
    String user;

    @Option(names = "--iterations", paramLabel = "N",
            description = "PBKDF2 iterations. Default: ${DEFAULT-VALUE} (OWASP's figure for PBKDF2-HMAC-SHA256).")
    int iterations = PasswordHash.DEFAULT_ITERATIONS;

    /** Where a password comes from when there is no terminal; tests replace it. */
    InputStream input = System.in;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        char[] password = read();
        if (password.length == 0) {
            throw new CommandException("the password is empty");
        }
        String hash;
        try {
            hash = PasswordHash.hash(password, iterations);
        } finally {
            Arrays.fill(password, '\0');
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(user == null ? hash : "users." + user + ".password = " + hash);
        out.flush();
        return 0;
    }

    private char[] read() throws IOException {
        Console console = System.console();
        if (console != null && input == System.in) {
            char[] first = console.readPassword("password for %s: ", user == null ? "the user" : user);
            char[] again = console.readPassword("again: ");
            if (first == null || again == null || !Arrays.equals(first, again)) {
                throw new CommandException("the passwords differ");
            }
            Arrays.fill(again, '\0');
            return first;
        }
        BufferedReader r = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
        String line = r.readLine();
        return line == null ? new char[0] : line.toCharArray();
    }
}
