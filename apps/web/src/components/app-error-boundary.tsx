import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/** The top-level error screen (SPEC §2): ':(' and 'Something went wrong'. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Unhandled application error', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <main className="container py-5 text-center" role="alert">
        <p className="display-1" aria-hidden="true">
          :(
        </p>
        <h1 className="h3">Something went wrong</h1>
        <p className="text-secondary">{this.state.error.message}</p>
        <a className="btn btn-outline-primary" href="/">
          Reload
        </a>
      </main>
    );
  }
}
