package io.mikyu.selector;

import java.math.BigInteger;

/**
 * Splits a selector into tokens. Keywords are recognised case-insensitively (ASCII only, so that e.g. a dotless
 * {@code ı} never turns an identifier into {@code IN}); identifiers are Java identifiers and case-sensitive; numeric
 * literals follow the Java literal syntax (decimal, hex, octal and binary integers with an optional {@code L}, decimal
 * and hex floating point with an optional {@code F}/{@code D}, underscores between digits).
 */
final class Lexer {

    enum Kind {
        IDENT, STRING, EXACT, APPROX,
        AND, OR, NOT, BETWEEN, LIKE, IN, IS, ESCAPE, NULL, TRUE, FALSE,
        EQ, NE, LT, LE, GT, GE, PLUS, MINUS, STAR, SLASH, LPAREN, RPAREN, COMMA,
        EOF
    }

    private static final Kind[] KEYWORDS = {
        Kind.AND, Kind.OR, Kind.NOT, Kind.BETWEEN, Kind.LIKE, Kind.IN, Kind.IS, Kind.ESCAPE,
        Kind.NULL, Kind.TRUE, Kind.FALSE
    };

    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final BigInteger LONG_MIN_MAGNITUDE = LONG_MAX.add(BigInteger.ONE);

    /**
     * One token. For {@link Kind#EXACT}: {@code exact} is the magnitude (or {@link Long#MIN_VALUE} for 2^63, which
     * is only valid negated, then {@code minOnly}); {@code isLong} if it had an {@code L} suffix. For {@link Kind#APPROX}: {@code approx}, and {@code isFloat} for an {@code F} suffix.
     */
    static final class Token {
        final Kind kind;
        final int pos;
        final String text;
        String string;
        long exact;
        boolean isLong;
        boolean minOnly;
        double approx;
        boolean isFloat;

        Token(Kind kind, int pos, String text) {
            this.kind = kind;
            this.pos = pos;
            this.text = text;
        }

        String describe() {
            return kind == Kind.EOF ? "end of selector" : "'" + text + "'";
        }
    }

    /** A lexical or syntax error at an offset of the selector. */
    static final class SyntaxError extends Exception {
        private static final long serialVersionUID = 1L;
        final int pos;

        SyntaxError(String message, int pos) {
            super(message, null, false, false);
            this.pos = pos;
        }
    }

    private final String in;
    private int i;

    Lexer(String in) {
        this.in = in;
    }

    Token next() throws SyntaxError {
        skipWhitespace();
        int start = i;
        if (i >= in.length()) {
            return new Token(Kind.EOF, start, "");
        }
        char ch = in.charAt(i);
        switch (ch) {
            case '\'':
                return string();
            case '(':
                return op(Kind.LPAREN, 1);
            case ')':
                return op(Kind.RPAREN, 1);
            case ',':
                return op(Kind.COMMA, 1);
            case '+':
                return op(Kind.PLUS, 1);
            case '-':
                return op(Kind.MINUS, 1);
            case '*':
                return op(Kind.STAR, 1);
            case '/':
                return op(Kind.SLASH, 1);
            case '=':
                return op(Kind.EQ, 1);
            case '<':
                if (peek(1) == '>') {
                    return op(Kind.NE, 2);
                }
                return peek(1) == '=' ? op(Kind.LE, 2) : op(Kind.LT, 1);
            case '>':
                return peek(1) == '=' ? op(Kind.GE, 2) : op(Kind.GT, 1);
            default:
                break;
        }
        if (isDigit(ch) || (ch == '.' && isDigit(peek(1)))) {
            return number();
        }
        int cp = in.codePointAt(i);
        if (Character.isJavaIdentifierStart(cp)) {
            i += Character.charCount(cp);
            while (i < in.length()) {
                int c = in.codePointAt(i);
                if (!Character.isJavaIdentifierPart(c)) {
                    break;
                }
                i += Character.charCount(c);
            }
            String text = in.substring(start, i);
            for (Kind k : KEYWORDS) {
                if (asciiEqualsIgnoreCase(text, k.name())) {
                    return new Token(k, start, text);
                }
            }
            return new Token(Kind.IDENT, start, text);
        }
        if (ch == '!' && peek(1) == '=') {
            throw new SyntaxError("'!=' is not a selector operator, use '<>'", start);
        }
        if (ch == '"') {
            throw new SyntaxError("string literals are enclosed in single quotes, not double quotes", start);
        }
        throw new SyntaxError("unexpected character '" + new String(Character.toChars(cp)) + "'"
                + (cp < 0x20 || cp > 0x7E ? String.format(" (U+%04X)", cp) : ""), start);
    }

    private void skipWhitespace() {
        while (i < in.length()) {
            char ch = in.charAt(i);
            // Java white space: space, horizontal tab, form feed, line terminators.
            if (ch == ' ' || ch == '\t' || ch == '\f' || ch == '\n' || ch == '\r') {
                i++;
            } else {
                break;
            }
        }
    }

    private char peek(int ahead) {
        int at = i + ahead;
        return at < in.length() ? in.charAt(at) : '\0';
    }

    private Token op(Kind kind, int len) {
        Token t = new Token(kind, i, in.substring(i, i + len));
        i += len;
        return t;
    }

    private Token string() throws SyntaxError {
        int start = i;
        StringBuilder sb = new StringBuilder();
        i++;
        while (true) {
            if (i >= in.length()) {
                throw new SyntaxError("unterminated string literal", start);
            }
            char ch = in.charAt(i++);
            if (ch == '\'') {
                if (i < in.length() && in.charAt(i) == '\'') {
                    sb.append('\'');
                    i++;
                } else {
                    break;
                }
            } else {
                sb.append(ch);
            }
        }
        Token t = new Token(Kind.STRING, start, in.substring(start, i));
        t.string = sb.toString();
        return t;
    }

    // ---------------------------------------------------------------- numbers

    private Token number() throws SyntaxError {
        int start = i;
        char ch = in.charAt(i);
        if (ch == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
            i += 2;
            String digits = digits(16, start);
            if (peek(0) == '.' || peek(0) == 'p' || peek(0) == 'P') {
                return hexFloat(start, digits);
            }
            if (digits.isEmpty()) {
                throw new SyntaxError("malformed hexadecimal literal", start);
            }
            return exact(start, digits, 16);
        }
        if (ch == '0' && (peek(1) == 'b' || peek(1) == 'B')) {
            i += 2;
            String digits = digits(2, start);
            if (digits.isEmpty()) {
                throw new SyntaxError("malformed binary literal", start);
            }
            return exact(start, digits, 2);
        }
        String intPart = digits(10, start);
        boolean approx = false;
        StringBuilder value = new StringBuilder(intPart);
        if (peek(0) == '.') {
            approx = true;
            i++;
            value.append('.').append(digits(10, start));
        }
        if (peek(0) == 'e' || peek(0) == 'E') {
            approx = true;
            i++;
            value.append('e');
            if (peek(0) == '+' || peek(0) == '-') {
                value.append(in.charAt(i++));
            }
            String exp = digits(10, start);
            if (exp.isEmpty()) {
                throw new SyntaxError("malformed exponent in numeric literal", start);
            }
            value.append(exp);
        }
        char suffix = peek(0);
        if (suffix == 'f' || suffix == 'F' || suffix == 'd' || suffix == 'D') {
            i++;
            checkEnd(start);
            return approx(start, value.toString(), suffix == 'f' || suffix == 'F', false);
        }
        if (approx) {
            checkEnd(start);
            return approx(start, value.toString(), false, false);
        }
        if (intPart.length() > 1 && intPart.charAt(0) == '0') {
            for (int k = 1; k < intPart.length(); k++) {
                if (intPart.charAt(k) > '7') {
                    throw new SyntaxError("malformed octal literal (a leading 0 means octal)", start);
                }
            }
            return exact(start, intPart.substring(1), 8);
        }
        return exact(start, intPart, 10);
    }

    /** Digits of {@code radix} with Java's rule that underscores may only appear between digits. */
    private String digits(int radix, int start) throws SyntaxError {
        StringBuilder sb = new StringBuilder();
        boolean lastUnderscore = false;
        while (i < in.length()) {
            char ch = in.charAt(i);
            if (ch == '_') {
                if (sb.length() == 0) {
                    throw new SyntaxError("malformed numeric literal (misplaced '_')", start);
                }
                lastUnderscore = true;
                i++;
            } else if (Character.digit(ch, radix) >= 0 && ch < 0x80) {
                sb.append(ch);
                lastUnderscore = false;
                i++;
            } else if (radix < 10 && isDigit(ch)) {
                throw new SyntaxError("malformed " + (radix == 8 ? "octal" : "binary") + " literal", start);
            } else {
                break;
            }
        }
        if (lastUnderscore) {
            throw new SyntaxError("malformed numeric literal (misplaced '_')", start);
        }
        return sb.toString();
    }

    private Token exact(int start, String digits, int radix) throws SyntaxError {
        boolean longSuffix = false;
        if (peek(0) == 'l' || peek(0) == 'L') {
            longSuffix = true;
            i++;
        }
        checkEnd(start);
        BigInteger magnitude = digits.isEmpty() ? BigInteger.ZERO : new BigInteger(digits, radix);
        Token t = new Token(Kind.EXACT, start, in.substring(start, i));
        if (magnitude.compareTo(LONG_MAX) <= 0) {
            t.exact = magnitude.longValue();
        } else if (magnitude.equals(LONG_MIN_MAGNITUDE)) {
            t.exact = Long.MIN_VALUE;
            t.minOnly = true;
        } else {
            throw new SyntaxError("exact numeric literal out of the range of long", start);
        }
        t.isLong = longSuffix;
        return t;
    }

    private Token hexFloat(int start, String intDigits) throws SyntaxError {
        StringBuilder value = new StringBuilder("0x").append(intDigits);
        if (peek(0) == '.') {
            i++;
            value.append('.').append(digits(16, start));
        }
        if (value.length() <= 3 || !(peek(0) == 'p' || peek(0) == 'P')) {
            throw new SyntaxError("malformed hexadecimal floating-point literal", start);
        }
        i++;
        value.append('p');
        if (peek(0) == '+' || peek(0) == '-') {
            value.append(in.charAt(i++));
        }
        String exp = digits(10, start);
        if (exp.isEmpty()) {
            throw new SyntaxError("malformed hexadecimal floating-point literal", start);
        }
        value.append(exp);
        boolean isFloat = false;
        char suffix = peek(0);
        if (suffix == 'f' || suffix == 'F' || suffix == 'd' || suffix == 'D') {
            isFloat = suffix == 'f' || suffix == 'F';
            i++;
        }
        checkEnd(start);
        return approx(start, value.toString(), isFloat, true);
    }

    private Token approx(int start, String value, boolean isFloat, boolean hex) throws SyntaxError {
        Token t = new Token(Kind.APPROX, start, in.substring(start, i));
        double v = isFloat ? Float.parseFloat(value) : Double.parseDouble(value);
        if (Double.isInfinite(v)) {
            throw new SyntaxError("approximate numeric literal too large", start);
        }
        if (v == 0 && hasNonZeroDigit(value, hex)) {
            throw new SyntaxError("approximate numeric literal too small", start);
        }
        t.approx = v;
        t.isFloat = isFloat;
        return t;
    }

    private static boolean hasNonZeroDigit(String value, boolean hex) {
        for (int k = hex ? 2 : 0; k < value.length(); k++) {
            char ch = value.charAt(k);
            if (hex ? ch == 'p' : ch == 'e') {
                return false;
            }
            if (Character.digit(ch, hex ? 16 : 10) > 0) {
                return true;
            }
        }
        return false;
    }

    /** A number must not run straight into a letter or digit, as in {@code 12abc} or {@code 0x1g}. */
    private void checkEnd(int start) throws SyntaxError {
        if (i < in.length()) {
            int cp = in.codePointAt(i);
            if (Character.isJavaIdentifierPart(cp) || cp == '.') {
                throw new SyntaxError("malformed numeric literal", start);
            }
        }
    }

    private static boolean isDigit(char ch) {
        return ch >= '0' && ch <= '9';
    }

    private static boolean asciiEqualsIgnoreCase(String text, String upperKeyword) {
        if (text.length() != upperKeyword.length()) {
            return false;
        }
        for (int k = 0; k < text.length(); k++) {
            char ch = text.charAt(k);
            if (ch >= 'a' && ch <= 'z') {
                ch = (char) (ch - ('a' - 'A'));
            }
            if (ch != upperKeyword.charAt(k)) {
                return false;
            }
        }
        return true;
    }
}
