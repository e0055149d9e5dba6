package io.mikyu.engine;

import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchRule;
import io.mikyu.engine.config.Secrets;
import io.mikyu.engine.config.UrlQuery;
import io.mikyu.engine.internal.store.Store;
import io.mikyu.engine.spi.Dialer;
import io.mikyu.engine.spi.EncodedBatch;
import io.mikyu.engine.spi.EncodedBatchHandler;
import io.mikyu.engine.spi.TimeSource;

import java.util.Set;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The engine's layering (docs/architecture.md, "Layering"): its packages form no cycle, and it uses no other module.
 *
 * <p>Every package depends on the API package {@code io.mikyu.engine} (its values and exceptions). The API names, in
 * turn, a few classes of other packages; those dependencies are listed here one by one, each with its reason, and
 * every other one that closes a cycle fails the test.
 */
@AnalyzeClasses(locations = EngineArchitectureTest.ProductionClasses.class)
class EngineArchitectureTest {

    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("io.mikyu.(**)").should().beFreeOfCycles()
            // Mikyu.open(): the interface's one way into the implementation.
            .ignoreDependency(Mikyu.class, Store.class)
            // Mikyu.dial(): finds a Dialer (which returns a Mikyu), and redacts the URL's secrets in its errors.
            .ignoreDependency(Mikyu.class, Dialer.class)
            .ignoreDependency(Mikyu.class, Secrets.class)
            // A header-equals filter's text is a URL query, read and written by the one query parser.
            .ignoreDependency(HeaderEquals.class, UrlQuery.class)
            // A store's clock is plugged in through its configuration.
            .ignoreDependency(EngineConfig.class, TimeSource.class)
            .ignoreDependency(EngineConfig.Builder.class, TimeSource.class)
            // A broker's batch-level appends and reads.
            .ignoreDependency(LogQueue.class, EncodedBatch.class)
            .ignoreDependency(LogQueue.class, EncodedBatchHandler.class)
            // The plug-in view of a stored batch reads it with the one batch format code.
            .ignoreDependency(equivalentTo(EncodedBatch.class), resideInAPackage("io.mikyu.engine.internal.format"));

    @ArchTest
    static final ArchRule usesNoOtherModule = noClasses().should()
            .dependOnClassesThat(resideInAPackage("io.mikyu..").and(not(resideInAPackage("io.mikyu.engine.."))));

    /** This module's production classes: the directory (or jar) that holds {@link Mikyu}, and nothing else. */
    static final class ProductionClasses implements LocationProvider {

        @Override
        public Set<Location> get(Class<?> testClass) {
            return Set.of(Location.of(Mikyu.class.getProtectionDomain().getCodeSource().getLocation()));
        }
    }
}
