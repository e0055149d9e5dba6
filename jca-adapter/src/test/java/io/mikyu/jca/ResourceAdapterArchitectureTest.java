package io.mikyu.jca;

import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchRule;

import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The resource adapter's layering (docs/architecture.md, "Layering"): no package cycle (the adapter on top, pools
 * and activation specs reaching it only through {@code settings.OwningAdapter}), and no engine internals.
 */
@AnalyzeClasses(locations = ResourceAdapterArchitectureTest.ProductionClasses.class)
class ResourceAdapterArchitectureTest {

    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("io.mikyu.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule usesNoEngineInternals = noClasses().should().dependOnClassesThat()
            .resideInAPackage("io.mikyu.engine.internal..");

    /** This module's production classes: the directory (or jar) that holds {@link MikyuResourceAdapter}, and nothing else. */
    static final class ProductionClasses implements LocationProvider {

        @Override
        public Set<Location> get(Class<?> testClass) {
            return Set.of(Location.of(MikyuResourceAdapter.class.getProtectionDomain().getCodeSource().getLocation()));
        }
    }
}
