package io.mikyu.selector;

import io.mikyu.selector.Lexer.Kind;
import io.mikyu.selector.Lexer.SyntaxError;
import io.mikyu.selector.Lexer.Token;
import io.mikyu.selector.Leaves.Ident;
import io.mikyu.selector.Nodes.Cond;
import io.mikyu.selector.Nodes.Expr;
import io.mikyu.selector.Nodes.Type;
import java.util.ArrayList;
import java.util.List;

/**
 * Recursive-descent parser for the Jakarta Messaging selector grammar (a subset of SQL92 conditional expressions):
 *
 * <pre>
 * selector       := or EOF                                   (must be boolean)
 * or             := and (OR and)*
 * and            := not (AND not)*
 * not            := NOT not | predicate
 * predicate      := additive [ cmp additive
 *                            | [NOT] BETWEEN additive AND additive
 *                            | [NOT] IN '(' string (',' string)* ')'      (left side: identifier)
 *                            | [NOT] LIKE string [ESCAPE string]          (left side: identifier)
 *                            | IS [NOT] NULL ]                            (left side: identifier)
 * additive       := multiplicative (('+' | '-') multiplicative)*
 * multiplicative := unary (('*' | '/') unary)*
 * unary          := ('+' | '-') unary | primary
 * primary        := identifier | string | number | TRUE | FALSE | '(' or ')'
 * </pre>
 *
 * Besides the syntax it checks what can be checked statically, as the specification allows: arithmetic, ordering
 * comparisons and BETWEEN need numeric operands (a string or boolean literal there is an error), {@code =} and
 * {@code <>} must not compare a literal or expression of one type with another type, logical operators need boolean
 * operands, and the selector as a whole must be boolean. Identifiers are untyped until evaluation.
 */
final class Parser {

    /** Bound on nesting and tree height, so neither parsing nor evaluation can overflow the stack. */
    static final int MAX_DEPTH = 200;

    private final Lexer lexer;
    private Token tok;
    private int nesting;

    Parser(String text) {
        this.lexer = new Lexer(text);
    }

    Cond parse() throws SyntaxError {
        tok = lexer.next();
        Expr e = or();
        if (tok.kind != Kind.EOF) {
            throw unexpected();
        }
        return cond(e, "a selector");
    }

    private Token advance() throws SyntaxError {
        Token t = tok;
        tok = lexer.next();
        return t;
    }

    private SyntaxError unexpected() {
        if (tok.kind == Kind.EOF) {
            return new SyntaxError("unexpected end of selector", tok.pos);
        }
        String what = tok.describe();
        if (tok.kind == Kind.RPAREN) {
            return new SyntaxError("unbalanced ')'", tok.pos);
        }
        if (isKeyword(tok.kind)) {
            return new SyntaxError("unexpected keyword " + what, tok.pos);
        }
        return new SyntaxError("unexpected " + what, tok.pos);
    }

    private static boolean isKeyword(Kind k) {
        return k.ordinal() >= Kind.AND.ordinal() && k.ordinal() <= Kind.FALSE.ordinal();
    }

    private void enter(int pos) throws SyntaxError {
        if (++nesting > MAX_DEPTH) {
            throw new SyntaxError("selector is nested too deeply", pos);
        }
    }

    private void leave() {
        nesting--;
    }

    private static <E extends Expr> E bounded(E e) throws SyntaxError {
        if (e.depth > MAX_DEPTH) {
            throw new SyntaxError("selector is nested too deeply", e.pos);
        }
        return e;
    }

    // ---------------------------------------------------------------- logic

    private Expr or() throws SyntaxError {
        Expr first = and();
        if (tok.kind != Kind.OR) {
            return first;
        }
        List<Cond> operands = new ArrayList<>();
        operands.add(cond(first, "an operand of OR"));
        while (tok.kind == Kind.OR) {
            advance();
            operands.add(cond(and(), "an operand of OR"));
        }
        return bounded(Logic.Junction.of(false, operands));
    }

    private Expr and() throws SyntaxError {
        Expr first = not();
        if (tok.kind != Kind.AND) {
            return first;
        }
        List<Cond> operands = new ArrayList<>();
        operands.add(cond(first, "an operand of AND"));
        while (tok.kind == Kind.AND) {
            advance();
            operands.add(cond(not(), "an operand of AND"));
        }
        return bounded(Logic.Junction.of(true, operands));
    }

    private Expr not() throws SyntaxError {
        if (tok.kind == Kind.NOT) {
            Token op = advance();
            enter(op.pos);
            Expr operand = not();
            leave();
            return bounded(new Logic.Not(op.pos, cond(operand, "the operand of NOT")));
        }
        return predicate();
    }

    /** Identifiers used as conditions are wrapped; anything else must be boolean already. */
    private static Cond cond(Expr e, String role) throws SyntaxError {
        if (e instanceof Cond c) {
            return c;
        }
        if (e instanceof Ident id) {
            return new Leaves.IdentCond(id);
        }
        throw new SyntaxError(role + " must be a boolean expression, not " + describe(e.type()), e.pos);
    }

    // ---------------------------------------------------------------- predicates

    private Expr predicate() throws SyntaxError {
        Expr left = additive();
        switch (tok.kind) {
            case EQ, NE, LT, LE, GT, GE: {
                Token op = advance();
                Expr right = additive();
                return comparison(op, left, right);
            }
            case BETWEEN:
                return between(left, false);
            case IN:
                return in(left, false);
            case LIKE:
                return like(left, false);
            case NOT: {
                Token not = advance();
                switch (tok.kind) {
                    case BETWEEN:
                        return between(left, true);
                    case IN:
                        return in(left, true);
                    case LIKE:
                        return like(left, true);
                    default:
                        throw new SyntaxError("expected BETWEEN, IN or LIKE after NOT", not.pos);
                }
            }
            case IS: {
                Token is = advance();
                boolean not = false;
                if (tok.kind == Kind.NOT) {
                    advance();
                    not = true;
                }
                if (tok.kind != Kind.NULL) {
                    throw new SyntaxError("expected NULL after " + (not ? "IS NOT" : "IS"), tok.pos);
                }
                advance();
                return new IdentifierTests.IsNull(ident(left, "IS NULL", is), not);
            }
            default:
                return left;
        }
    }

    private Expr comparison(Token op, Expr left, Expr right) throws SyntaxError {
        int code = switch (op.kind) {
            case EQ -> Comparisons.EQ;
            case NE -> Comparisons.NE;
            case LT -> Comparisons.LT;
            case LE -> Comparisons.LE;
            case GT -> Comparisons.GT;
            default -> Comparisons.GE;
        };
        Type lt = left.type();
        Type rt = right.type();
        if (code != Comparisons.EQ && code != Comparisons.NE) {
            for (Expr side : new Expr[] {left, right}) {
                if (!numeric(side)) {
                    throw new SyntaxError("'" + op.text + "' compares numbers only (strings and booleans support only"
                            + " = and <>), not " + describe(side.type()), side.pos);
                }
            }
        } else if (lt != Type.ANY && rt != Type.ANY && lt != rt) {
            throw new SyntaxError("cannot compare " + describe(lt) + " with " + describe(rt), op.pos);
        }
        return bounded(new Comparisons.Compare(code, left, right));
    }

    private Expr between(Expr value, boolean not) throws SyntaxError {
        advance(); // BETWEEN
        requireNumeric(value, "BETWEEN");
        Expr low = additive();
        requireNumeric(low, "BETWEEN");
        if (tok.kind != Kind.AND) {
            throw new SyntaxError("expected AND in BETWEEN, found " + tok.describe(), tok.pos);
        }
        advance();
        Expr high = additive();
        requireNumeric(high, "BETWEEN");
        return bounded(new Comparisons.Between(value, low, high, not));
    }

    private Expr in(Expr left, boolean not) throws SyntaxError {
        Token kw = advance(); // IN
        Ident id = ident(left, "IN", kw);
        if (tok.kind != Kind.LPAREN) {
            throw new SyntaxError("expected '(' after IN", tok.pos);
        }
        advance();
        List<String> values = new ArrayList<>();
        while (true) {
            if (tok.kind != Kind.STRING) {
                throw new SyntaxError("IN list items must be string literals, found " + tok.describe(), tok.pos);
            }
            values.add(advance().string);
            if (tok.kind == Kind.COMMA) {
                advance();
            } else if (tok.kind == Kind.RPAREN) {
                advance();
                break;
            } else {
                throw new SyntaxError("expected ',' or ')' in IN list, found " + tok.describe(), tok.pos);
            }
        }
        return new IdentifierTests.In(id, values, not);
    }

    private Expr like(Expr left, boolean not) throws SyntaxError {
        Token kw = advance(); // LIKE
        Ident id = ident(left, "LIKE", kw);
        if (tok.kind != Kind.STRING) {
            throw new SyntaxError("LIKE pattern must be a string literal, found " + tok.describe(), tok.pos);
        }
        Token pattern = advance();
        String escape = null;
        int escapeCp = -1;
        if (tok.kind == Kind.ESCAPE) {
            advance();
            if (tok.kind != Kind.STRING) {
                throw new SyntaxError("ESCAPE must be followed by a string literal, found " + tok.describe(), tok.pos);
            }
            Token esc = advance();
            escape = esc.string;
            if (escape.isEmpty() || escape.codePointCount(0, escape.length()) != 1) {
                throw new SyntaxError("the ESCAPE character must be a single-character string literal", esc.pos);
            }
            escapeCp = escape.codePointAt(0);
        }
        LikePattern matcher;
        try {
            matcher = LikePattern.compile(pattern.string, escapeCp);
        } catch (IllegalArgumentException e) {
            throw new SyntaxError("LIKE pattern ends with the escape character", pattern.pos);
        }
        return new IdentifierTests.Like(id, pattern.string, escape, matcher, not);
    }

    private static Ident ident(Expr e, String construct, Token kw) throws SyntaxError {
        if (e instanceof Ident id) {
            return id;
        }
        throw new SyntaxError(construct + " applies to an identifier, not " + describe(e.type()), kw.pos);
    }

    // ---------------------------------------------------------------- arithmetic

    private Expr additive() throws SyntaxError {
        Expr left = multiplicative();
        while (tok.kind == Kind.PLUS || tok.kind == Kind.MINUS) {
            Token op = advance();
            Expr right = multiplicative();
            left = arith(op, left, right);
        }
        return left;
    }

    private Expr multiplicative() throws SyntaxError {
        Expr left = unary();
        while (tok.kind == Kind.STAR || tok.kind == Kind.SLASH) {
            Token op = advance();
            Expr right = unary();
            left = arith(op, left, right);
        }
        return left;
    }

    private static Expr arith(Token op, Expr left, Expr right) throws SyntaxError {
        requireNumeric(left, "'" + op.text + "'");
        requireNumeric(right, "'" + op.text + "'");
        return bounded(new Arithmetic.Arith(op.text.charAt(0), left, right));
    }

    private Expr unary() throws SyntaxError {
        if (tok.kind != Kind.PLUS && tok.kind != Kind.MINUS) {
            return primary();
        }
        Token op = advance();
        boolean minus = op.kind == Kind.MINUS;
        if (tok.kind == Kind.EXACT || tok.kind == Kind.APPROX) {
            // A signed literal: folding it also admits -9223372036854775808, as in Java.
            return number(advance(), minus, op.pos);
        }
        enter(op.pos);
        Expr operand = unary();
        leave();
        requireNumeric(operand, "unary '" + op.text + "'");
        if (!minus && operand.type() == Type.NUM) {
            return operand;
        }
        return bounded(new Arithmetic.Unary(op.pos, minus, operand));
    }

    private Expr primary() throws SyntaxError {
        switch (tok.kind) {
            case IDENT:
                return new Ident(tok.pos, advance().text);
            case STRING: {
                Token t = advance();
                return Leaves.Lit.ofString(t.pos, t.string);
            }
            case EXACT:
            case APPROX: {
                Token t = advance();
                return number(t, false, t.pos);
            }
            case TRUE:
                return new Leaves.BoolLit(advance().pos, true);
            case FALSE:
                return new Leaves.BoolLit(advance().pos, false);
            case LPAREN: {
                Token open = advance();
                enter(open.pos);
                Expr e = or();
                leave();
                if (tok.kind != Kind.RPAREN) {
                    throw tok.kind == Kind.EOF
                            ? new SyntaxError("unbalanced '('", open.pos)
                            : new SyntaxError("expected ')', found " + tok.describe(), tok.pos);
                }
                advance();
                return e;
            }
            case NULL:
                throw new SyntaxError("NULL may only be used in IS NULL and IS NOT NULL", tok.pos);
            default:
                if (isKeyword(tok.kind)) {
                    throw new SyntaxError("unexpected keyword " + tok.describe()
                            + " (reserved words cannot be used as identifiers)", tok.pos);
                }
                throw unexpected();
        }
    }

    private static Expr number(Token t, boolean negate, int pos) throws SyntaxError {
        if (t.kind == Kind.APPROX) {
            double v = negate ? -t.approx : t.approx;
            return t.isFloat ? Leaves.Lit.ofFloat(pos, (float) v) : Leaves.Lit.ofDouble(pos, v);
        }
        if (t.minOnly && !negate) {
            throw new SyntaxError("exact numeric literal out of the range of long", t.pos);
        }
        long v = negate ? -t.exact : t.exact; // -Long.MIN_VALUE == Long.MIN_VALUE, the value wanted for minOnly
        if (!t.isLong && v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            return Leaves.Lit.ofInt(pos, (int) v);
        }
        return Leaves.Lit.ofLong(pos, v);
    }

    private static void requireNumeric(Expr e, String construct) throws SyntaxError {
        if (!numeric(e)) {
            throw new SyntaxError(construct + " needs numeric operands, not " + describe(e.type()), e.pos);
        }
    }

    private static boolean numeric(Expr e) {
        return e.type() == Type.NUM || e.type() == Type.ANY;
    }

    private static String describe(Type t) {
        return switch (t) {
            case BOOL -> "a boolean";
            case NUM -> "a number";
            case STR -> "a string";
            default -> "an identifier";
        };
    }
}
