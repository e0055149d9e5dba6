package io.mikyu.cli;

import io.mikyu.engine.LeaseToken;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Lets picocli parameters take lease tokens as {@code dequeue} prints them: {@code <taskId>-<lease>}. */
final class LeaseTokenConverter implements ITypeConverter<LeaseToken> {
    @Override
    public LeaseToken convert(String value) {
        try {
            return LeaseToken.parse(value.trim());
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
