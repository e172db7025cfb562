import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';

/** A paged card's 'More' (SPEC §2): ignored, and looking disabled, while a page loads. */
export function MoreFooter({ loading, onMore }: { loading: boolean; onMore: () => void }) {
  return (
    <Card.Footer className="bg-body text-center">
      <Button
        variant="outline-secondary"
        size="sm"
        onClick={onMore}
        aria-disabled={loading}
        className={loading ? 'disabled-look' : undefined}
      >
        More
      </Button>
    </Card.Footer>
  );
}
