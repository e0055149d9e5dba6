package io.mikyu.selector;

/**
 * A compiled SQL LIKE pattern: {@code _} matches one character, {@code %} any sequence (including none), an escaped
 * character and every other character match themselves. Compiled once; matching allocates nothing and never uses
 * regular expressions. Common shapes (exact, prefix, suffix, infix) get fast paths; the general case is the linear
 * "last wildcard" backtracking matcher, O(n·m) in the worst case.
 *
 * <p>Characters are matched as code points: {@code _} consumes a whole surrogate pair.
 */
final class LikePattern {

    private static final int ANY_ONE = -1;
    private static final int ANY_SEQ = -2;

    private enum Shape { EXACT, PREFIX, SUFFIX, INFIX, GENERAL }

    private final Shape shape;
    /** For the fast paths: the literal part. */
    private final String literal;
    /** For {@link Shape#GENERAL}: code points, {@link #ANY_ONE} or {@link #ANY_SEQ}. */
    private final int[] tokens;

    private LikePattern(Shape shape, String literal, int[] tokens) {
        this.shape = shape;
        this.literal = literal;
        this.tokens = tokens;
    }

    /**
     * Compiles {@code pattern}; {@code escape} is the escape code point or -1.
     *
     * @throws IllegalArgumentException (with the offending index as message prefix) if the pattern ends in a lone
     *     escape character
     */
    static LikePattern compile(String pattern, int escape) {
        int[] buf = new int[pattern.length()];
        int n = 0;
        boolean wildcards = false;
        for (int i = 0; i < pattern.length(); ) {
            int cp = pattern.codePointAt(i);
            int len = Character.charCount(cp);
            if (cp == escape) {
                if (i + len >= pattern.length()) {
                    throw new IllegalArgumentException(Integer.toString(i));
                }
                int next = pattern.codePointAt(i + len);
                buf[n++] = next;
                i += len + Character.charCount(next);
                continue;
            }
            if (cp == '%') {
                wildcards = true;
                if (n == 0 || buf[n - 1] != ANY_SEQ) { // %% is %
                    buf[n++] = ANY_SEQ;
                }
            } else if (cp == '_') {
                wildcards = true;
                buf[n++] = ANY_ONE;
            } else {
                buf[n++] = cp;
            }
            i += len;
        }
        int[] tokens = java.util.Arrays.copyOf(buf, n);
        if (!wildcards) {
            return new LikePattern(Shape.EXACT, text(tokens, 0, n), null);
        }
        int seqs = 0;
        int ones = 0;
        for (int t : tokens) {
            if (t == ANY_SEQ) {
                seqs++;
            } else if (t == ANY_ONE) {
                ones++;
            }
        }
        if (ones == 0 && seqs == 1) {
            if (tokens[n - 1] == ANY_SEQ) {
                return new LikePattern(Shape.PREFIX, text(tokens, 0, n - 1), null);
            }
            if (tokens[0] == ANY_SEQ) {
                return new LikePattern(Shape.SUFFIX, text(tokens, 1, n), null);
            }
        }
        if (ones == 0 && seqs == 2 && n >= 2 && tokens[0] == ANY_SEQ && tokens[n - 1] == ANY_SEQ) {
            return new LikePattern(Shape.INFIX, text(tokens, 1, n - 1), null);
        }
        return new LikePattern(Shape.GENERAL, null, tokens);
    }

    private static String text(int[] cps, int from, int to) {
        StringBuilder sb = new StringBuilder(to - from);
        for (int i = from; i < to; i++) {
            sb.appendCodePoint(cps[i]);
        }
        return sb.toString();
    }

    boolean matches(String s) {
        switch (shape) {
            case EXACT:
                return s.equals(literal);
            case PREFIX:
                return s.startsWith(literal);
            case SUFFIX:
                return s.endsWith(literal);
            case INFIX:
                return s.contains(literal);
            default:
                return general(s);
        }
    }

    private boolean general(String s) {
        int[] p = tokens;
        int si = 0;
        int pi = 0;
        int starP = -1;
        int starS = -1;
        int len = s.length();
        while (si < len) {
            if (pi < p.length && p[pi] != ANY_SEQ) {
                int cp = s.codePointAt(si);
                if (p[pi] == ANY_ONE || p[pi] == cp) {
                    si += Character.charCount(cp);
                    pi++;
                    continue;
                }
            } else if (pi < p.length) { // ANY_SEQ: remember it, first try matching nothing
                starP = pi++;
                starS = si;
                continue;
            }
            if (starP < 0) {
                return false;
            }
            // Let the last % swallow one more character and retry after it.
            starS += Character.charCount(s.codePointAt(starS));
            si = starS;
            pi = starP + 1;
        }
        while (pi < p.length && p[pi] == ANY_SEQ) {
            pi++;
        }
        return pi == p.length;
    }
}
