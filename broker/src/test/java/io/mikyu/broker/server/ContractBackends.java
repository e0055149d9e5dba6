package io.mikyu.broker.server;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;

import java.lang.reflect.Method;
import java.util.stream.Stream;

/**
 * The backends of a {@link MikyuContractTest} class: what its own static {@code contractBackends()} returns, so
 * that a subclass in another module runs the same tests against its backend only.
 */
final class ContractBackends implements ArgumentsProvider {

    @Override
    @SuppressWarnings("unchecked")
    public Stream<? extends Arguments> provideArguments(ExtensionContext context) throws Exception {
        Method backends = context.getRequiredTestClass().getDeclaredMethod("contractBackends");
        backends.setAccessible(true);
        return ((Stream<ContractBackend>) backends.invoke(null)).map(Arguments::of);
    }
}
